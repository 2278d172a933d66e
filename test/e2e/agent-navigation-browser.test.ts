// A single-page app on a page of another origin than the emulator's: navigating with
// history.pushState, back/forward or a `#/route` records a page view, as analytics agents do;
// replaceState and a plain #anchor do not, and data-auto-pageviews="off" leaves it to the app.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { BROWSER_TESTS_RUN } from '../helpers/browser.js';
import { agentOnShopPages } from '../helpers/agent-browser.js';
import { pollUntil } from '../helpers/poll.js';

const WAIT = 30_000;

interface Sent { url: string; referrer: string | null }

describe.skipIf(!BROWSER_TESTS_RUN)('the agent in a single-page app', { timeout: 180_000 }, () => {
  const live = agentOnShopPages((server) => {
    const tag = (attrs = '') => `<script src="${server.origin}/agent.js" data-site-key="${server.site!.site_key}"${attrs}></script>`;
    const pages = new Map<string, string>();
    pages.set('/app', `${tag()}<h1>Shop</h1><p id="section">Details</p>`);
    pages.set('/manual', `${tag(' data-auto-pageviews="off"')}<h1>Shop</h1>`);
    return (path) => pages.get(path) ?? '';
  });

  // The page views the agent posted, in order, as the emulator received them.
  const open = async (path: string) => {
    const page = await live.browser.newPage();
    const sent: Sent[] = [];
    const errors: string[] = [];
    page.on('request', (r) => { if (r.url().endsWith('/_vtr/agent/pageview')) sent.push(JSON.parse(r.postData()!)); });
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${live.origin}${path}`);
    await page.waitForFunction(() => !!(window as any).vtr?.sessionId(), null, { timeout: WAIT });
    const id = (await page.evaluate(() => (window as any).vtr.sessionId())) as string;
    return { page, sent, errors, id };
  };
  // The session through the API once it counts `n` page views.
  const withPageViews = (id: string, n: number) =>
    pollUntil(async () => { const s = await live.session(id); return s.page_views === n && s; }, WAIT, () => `session ${id} with ${n} page views`);
  // The browser's request events can reach the test after the emulator has recorded the page
  // view, so what was sent is read once it holds `n`; a later assertion still sees any extra.
  const sentAll = (sent: Sent[], n: number) =>
    pollUntil(() => sent.length >= n && sent, WAIT, () => `${n} page views sent, saw ${JSON.stringify(sent)}`);
  const urls = (sent: Sent[]) => sent.map((s) => s.url);
  const settle = (page: Page) => page.evaluate(() => new Promise((r) => setTimeout(r, 100)));

  it('pageview: history.pushState to a new path records a page view whose referrer is the previous URL, and pushState works as before', async () => {
    const { page, sent, errors, id } = await open('/app?from=ad');
    const answer = await page.evaluate(() => {
      const r = history.pushState({ step: 2 }, '', '/app/cart');
      return { r: r === undefined, state: history.state, path: location.pathname };
    });
    expect(answer).toEqual({ r: true, state: { step: 2 }, path: '/app/cart' });
    expect(await withPageViews(id, 2)).toMatchObject({ entry_path: '/app', exit_path: '/app/cart' });
    expect(await sentAll(sent, 2)).toEqual([
      expect.objectContaining({ url: `${live.origin}/app?from=ad`, referrer: null }),
      expect.objectContaining({ url: `${live.origin}/app/cart`, referrer: `${live.origin}/app?from=ad` }),
    ]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('pageview: replaceState and a plain #anchor record none; a #/route does, and pushState calls in one tick record one, of the final URL', async () => {
    const { page, sent, id } = await open('/app');
    await page.evaluate(() => { history.replaceState(null, '', '/app?tab=2'); location.hash = '#section'; });
    await settle(page);
    // A router redirecting at once: only where it lands is a page.
    await page.evaluate(() => { history.pushState(null, '', '/app/login'); history.pushState(null, '', '/app/account'); });
    await withPageViews(id, 2);
    await page.evaluate(() => { location.hash = '#/orders'; });
    await withPageViews(id, 3);
    await sentAll(sent, 3);
    expect(urls(sent)).toEqual([`${live.origin}/app`, `${live.origin}/app/account`, `${live.origin}/app/account#/orders`]);
    // The page left is where replaceState put it.
    expect(sent.slice(1).map((s) => s.referrer)).toEqual([`${live.origin}/app?tab=2`, `${live.origin}/app/account`]);
    await page.close();
  });

  it('pageview: back records one page view, with the page left as referrer', async () => {
    const { page, sent, id } = await open('/app');
    await page.evaluate(() => history.pushState(null, '', '/app/cart'));
    await withPageViews(id, 2);
    await page.goBack();
    expect(await withPageViews(id, 3)).toMatchObject({ exit_path: '/app' });
    await settle(page);
    expect((await sentAll(sent, 3)).slice(2)).toEqual([expect.objectContaining({ url: `${live.origin}/app`, referrer: `${live.origin}/app/cart` })]);
    await page.close();
  });

  it("vtr.pageview: called by the app right after pushState, before or after the agent's own, is that page view, not a second", async () => {
    const { page, sent, id } = await open('/app');
    // Before: in the same tick as the navigation.
    const before = await page.evaluate(() => { history.pushState(null, '', '/app/a'); return (window as any).vtr.pageview(); });
    expect(before).toMatchObject({ session_id: id, probe_id: expect.stringMatching(/^prb_/) });
    // After: once the agent has recorded it.
    const after = await page.evaluate(() => { history.pushState(null, '', '/app/b'); return new Promise((r) => setTimeout(r, 50)).then(() => (window as any).vtr.pageview()); });
    expect(after).toMatchObject({ session_id: id, probe_id: (await page.evaluate(() => (window as any).vtr.probeId())) });
    await withPageViews(id, 3);
    await settle(page);
    await sentAll(sent, 3);
    expect(urls(sent)).toEqual([`${live.origin}/app`, `${live.origin}/app/a`, `${live.origin}/app/b`]);
    // Called again on the same page, it records the page again, as it always did.
    await page.evaluate(() => (window as any).vtr.pageview());
    await withPageViews(id, 4);
    await page.close();
  });

  it('pageview: with data-auto-pageviews="off", navigating records none; the page\'s own vtr.pageview() still does', async () => {
    const { page, sent, id } = await open('/manual');
    await page.evaluate(() => { history.pushState(null, '', '/manual/cart'); location.hash = '#/orders'; });
    await page.goBack();
    await page.goBack();
    await page.waitForFunction(() => location.pathname === '/manual' && !location.hash, null, { timeout: WAIT });
    await settle(page);
    await page.evaluate(() => { history.pushState(null, '', '/manual/checkout'); return (window as any).vtr.pageview(); });
    expect(await withPageViews(id, 2)).toMatchObject({ exit_path: '/manual/checkout' });
    expect(await sentAll(sent, 2)).toEqual([
      expect.objectContaining({ url: `${live.origin}/manual` }),
      expect.objectContaining({ url: `${live.origin}/manual/checkout`, referrer: `${live.origin}/manual` }),
    ]);
    await page.close();
  });
});

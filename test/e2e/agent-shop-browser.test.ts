// The agent on a shop's own page (another origin than the emulator's), in a real browser: page
// views of a single-page app, and the probe the shop's backend sends to the visitor check.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { BROWSER_TESTS_RUN, launchChromium } from '../helpers/browser.js';
import { agentOnShopPages } from '../helpers/agent-browser.js';

const WAIT = 30_000;

describe.skipIf(!BROWSER_TESTS_RUN)('the agent on a shop page', { timeout: 180_000 }, () => {
  const live = agentOnShopPages((server) => (path) => `<script src="${server.origin}/agent.js" data-site-key="${server.site!.site_key}"></script><h1>Shop</h1>`
    + (path === '/bf' ? `<form><button data-vtr-site-key="${server.site!.site_key}">Buy</button></form><a href="/next">next</a>` : ''));

  const session = async (page: Page) => live.session(await page.evaluate(() => (window as any).vtr.sessionId()));

  it('agent: on a page whose tracing adds headers to every fetch (traceparent, sentry-trace, baggage), page views and events are recorded', async () => {
    const page = await live.browser.newPage();
    const warnings: string[] = [];
    page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
    // What browser tracing instrumentation does to requests to the origins it is told to trace.
    await page.addInitScript(() => {
      const original = window.fetch;
      window.fetch = (input, init = {}) => original(input, {
        ...init, headers: { ...(init.headers as Record<string, string>), traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', 'sentry-trace': '0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-1', baggage: 'sentry-environment=dev' },
      });
    });
    await page.goto(`${live.origin}/`);
    expect(await page.evaluate(() => (window as any).vtr.probe(10_000))).toMatch(/^prb_/);
    expect(await page.evaluate(() => (window as any).vtr.event('signup'))).toEqual({ success: true });
    expect(await session(page)).toMatchObject({ page_views: 1, custom_events: ['signup'] });
    expect(warnings).toEqual([]);
    await page.close();
  });

  it('vtr.pageview: an address longer than the emulator keeps (app state in the query) is recorded, cut to fit', async () => {
    const page = await live.browser.newPage();
    const warnings: string[] = [];
    page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
    await page.goto(`${live.origin}/`);
    await page.waitForFunction(() => !!(window as any).vtr?.sessionId(), null, { timeout: WAIT });
    for (const n of [9_000, 70_000]) {
      const answer = await page.evaluate((n) => {
        history.pushState({}, '', `/search?utm_source=newsletter&state=${'a'.repeat(n)}`);
        return (window as any).vtr.pageview();
      }, n);
      expect(answer, `${n} characters`).toMatchObject({ probe_id: expect.stringMatching(/^prb_/) });
    }
    expect(await session(page)).toMatchObject({ page_views: 3, exit_path: '/search' });
    // The time-on-page ping from such a page is taken too.
    const ping = page.waitForResponse((r) => r.url().endsWith('/_vtr/agent/ping'));
    await page.evaluate(() => window.dispatchEvent(new Event('pagehide')));
    expect((await ping).status()).toBe(200);
    expect(warnings).toEqual([]);
    await page.close();
  });

  it('pageview: going back to a page the browser kept in its back/forward cache records a page view, as going back to one it reloads does, and the form gets the new probe', async () => {
    const browser = await launchChromium({ backForwardCache: true });
    try {
      const page = await browser.newPage();
      const warnings: string[] = [];
      page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
      await page.goto(`${live.origin}/bf`);
      const first = await page.evaluate(() => (window as any).vtr.probe(10_000));
      await page.evaluate(() => { (window as any).kept = true; });
      await page.click('a');
      await page.waitForFunction(() => !!(window as any).vtr?.sessionId(), null, { timeout: WAIT });
      await page.goBack({ waitUntil: 'commit' });
      await page.waitForFunction((p) => (window as any).vtr.probeId() && (window as any).vtr.probeId() !== p, first, { timeout: WAIT });
      // Restored, not reloaded: the page's state is the one it was left with.
      expect(await page.evaluate(() => (window as any).kept)).toBe(true);
      const probe = await page.evaluate(() => (window as any).vtr.probeId());
      expect(await page.inputValue('input[name="probe_id"]')).toBe(probe);
      expect(await session(page)).toMatchObject({ page_views: 3, entry_path: '/bf', exit_path: '/bf' });
      expect(warnings).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('vtr.event: an emulator that cannot be reached (stopped, or a blocker) is named in the failure and the warning, not a bare "Failed to fetch"', async () => {
    const page = await live.browser.newPage();
    const warnings: string[] = [];
    page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
    await page.goto(`${live.origin}/`);
    await page.evaluate(() => (window as any).vtr.probe(10_000));
    await page.route('**/_vtr/agent/event', (r) => r.abort('connectionrefused'));
    const r = await page.evaluate(() => (window as any).vtr.event('signup'));
    expect(r.success).toBe(false);
    expect(r.message).toContain(`could not reach the emulator at ${live.server.origin}`);
    expect(warnings).toEqual([`vtr: event not recorded: ${r.message}`]);
    await page.close();
  });

  const watched = (page: Page) => {
    const seen = { warnings: [] as string[], errors: [] as string[] };
    page.on('console', (m) => m.type() === 'warning' && seen.warnings.push(m.text()));
    page.on('pageerror', (e) => seen.errors.push(e.message));
    return seen;
  };

  it('vtr.pageview: on a page that took window.fetch away, resolves null with a warning at once, as an unreachable emulator does; probe() answers null without waiting, event { success: false }', async () => {
    const page = await live.browser.newPage();
    const seen = watched(page);
    await page.addInitScript(() => { (window as any).fetch = undefined; });
    await page.goto(`${live.origin}/`);
    const r = await page.evaluate(async () => {
      const v = (window as any).vtr, t = Date.now();
      const probe = await v.probe(10_000);
      const answer = await v.pageview().then((a: unknown) => ({ a }), (e: Error) => ({ rejected: String(e) }));
      return { probe, answer, ms: Date.now() - t, event: await v.event('signup') };
    });
    expect(r.answer).toEqual({ a: null });
    expect(r.probe).toBeNull();
    expect(r.ms).toBeLessThan(3000);
    expect(r.event).toMatchObject({ success: false, message: expect.any(String) });
    expect(seen.warnings[0]).toContain(`vtr: page view not recorded: could not reach the emulator at ${live.server.origin}`);
    expect(seen.errors).toEqual([]);
    await page.close();
  });

  it('vtr.pageview: when the page\'s fetch throws at once after a recorded page view, resolves null and the session goes on with its probe; events fail as { success: false }, pings throw nothing into the page', async () => {
    const page = await live.browser.newPage();
    const seen = watched(page);
    await page.goto(`${live.origin}/`);
    const probe = await page.evaluate(() => (window as any).vtr.probe(10_000));
    const r = await page.evaluate(async () => {
      const v = (window as any).vtr;
      window.fetch = () => { throw new TypeError('blocked by the page'); };
      const answer = await v.pageview().then((a: unknown) => ({ a }), (e: Error) => ({ rejected: String(e) }));
      const event = await v.event('signup').then((a: unknown) => a, (e: Error) => ({ rejected: String(e) }));
      window.dispatchEvent(new Event('pagehide'));
      await new Promise((res) => setTimeout(res, 200));
      return { answer, event, probe: v.probeId() };
    });
    expect(r.answer).toEqual({ a: null });
    expect(r.event).toMatchObject({ success: false, message: expect.stringContaining('blocked by the page') });
    expect(r.probe).toBe(probe);
    expect(seen.errors).toEqual([]);
    await page.close();
  });

  for (const [what, status, body] of [['a 502 page from a proxy', 502, '<html>Bad Gateway</html>'], ['a 200 that is not JSON', 200, '<html>shop</html>'], ['a 200 whose JSON is null', 200, 'null']] as const) {
    it(`vtr.pageview and vtr.event: ${what} resolves null and { success: false } with its status, never rejects`, async () => {
      const page = await live.browser.newPage();
      const seen = watched(page);
      await page.goto(`${live.origin}/`);
      await page.evaluate(() => (window as any).vtr.probe(10_000));
      await page.route('**/_vtr/agent/*', (route) => route.fulfill({ status, body, headers: { 'access-control-allow-origin': '*' } }));
      const r = await page.evaluate(async () => {
        const v = (window as any).vtr, settle = (p: Promise<unknown>) => p.then((a) => ({ a }), (e: Error) => ({ rejected: String(e) }));
        return { event: await settle(v.event('signup')), answer: await settle(v.pageview()) };
      });
      expect(r.answer).toEqual({ a: null });
      expect(r.event).toEqual({ a: { success: false, message: expect.stringContaining(`HTTP ${status}`) } });
      expect(seen.errors).toEqual([]);
      await page.close();
    });
  }
});

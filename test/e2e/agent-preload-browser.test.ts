// The agent loaded with `async` (or `defer`), as sites load third-party scripts: the page's own
// scripts call vtr.event before it has arrived, through the one-line stub docs/agent.md gives.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { BROWSER_TESTS_RUN } from '../helpers/browser.js';
import { agentOnShopPages } from '../helpers/agent-browser.js';

const WAIT = 30_000;
// The snippet exactly as documented: the test fails if the documented one stops working.
const STUB = readFileSync(new URL('../../docs/agent.md', import.meta.url), 'utf8').split('\n').find((l) => l.startsWith('<script>') && l.includes('window.vtr=window.vtr||'));

describe.skipIf(!BROWSER_TESTS_RUN)('the agent loaded async', { timeout: 180_000 }, () => {
  const live = agentOnShopPages((server) => {
    const tag = (attrs: string) => `<script ${attrs} src="${server.origin}/agent.js" data-site-key="${server.site!.site_key}"></script>`;
    // The page's script runs before the async tag after it can have run.
    const early = `<script>
      // A router calling vtr.pageview() on every route, the first included.
      Promise.all([vtr.pageview(), vtr.event('cart_viewed'), vtr.event('purchase', { value: 49 }), vtr.event(undefined)]).then((a) => { window.answers = a; });
    </script>`;
    const pages = new Map<string, string>();
    pages.set('/async', `${STUB}<h1>Shop</h1>${early}${tag('async')}`);
    pages.set('/defer', `${STUB}${tag('defer')}<h1>Shop</h1>${early}`);
    // A page with the stub whose agent tag is an ordinary one, earlier: the stub leaves the agent be.
    pages.set('/sync', `${tag('')}${STUB}<h1>Shop</h1>${early}`);
    // Something on the page makes the agent fail as it starts (here: listeners refused).
    const breaker = `<script>const add = addEventListener; addEventListener = function (t) { if (t === 'submit') throw new Error('refused'); return add.apply(this, arguments); };</script>`;
    const calls = `<script>window.answers = []; [vtr.probe(100), vtr.event('x'), vtr.pageview()].forEach((p, i) => p.then((r) => { window.answers[i] = r; }));</script>`;
    pages.set('/disabled', `${STUB}${breaker}${calls}${tag('async')}`);
    // The synchronous getters, read before the agent has arrived (a page's analytics tagging its own events).
    pages.set('/ids', `${STUB}<script>window.early = [typeof vtr.probeId === 'function' && vtr.probeId(), typeof vtr.sessionId === 'function' && vtr.sessionId()];</script>${tag('async')}`);
    pages.set('/probe', `${STUB}<script>vtr.probe(5000).then((p) => { window.early = p; });</script>${tag('async')}`);
    return (path) => pages.get(path) ?? '';
  });

  const session = async (page: Page) => {
    await page.waitForFunction(() => !!(window as any).vtr?.sessionId?.(), null, { timeout: WAIT });
    return live.session(await page.evaluate(() => (window as any).vtr.sessionId()));
  };

  it('docs: agent.md gives the one-line stub', () => {
    expect(STUB).toMatch(/^<script>.*<\/script>$/);
  });

  for (const path of ['/async', '/defer', '/sync']) {
    it(`vtr.event: called before the agent has loaded (${path}), through the documented stub, is recorded and answers as it would after; the page's own page view is the one the agent records on load`, async () => {
      const page = await live.browser.newPage();
      const warnings: string[] = [];
      const errors: string[] = [];
      page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`${live.origin}${path}`);
      await page.waitForFunction(() => (window as any).answers?.length === 4, null, { timeout: WAIT });
      const id = await page.evaluate(() => (window as any).vtr.sessionId());
      expect(await page.evaluate(() => (window as any).answers)).toEqual([
        { session_id: id, probe_id: expect.stringMatching(/^prb_/), fingerprint: expect.stringMatching(/^fp_/) }, { success: true }, { success: true }, { success: false, message: "name must be a string, e.g. vtr.event('signup')" },
      ]);
      const recorded = await session(page);
      // With the agent already there (/sync), vtr.pageview() records a page view as it always does.
      expect(recorded).toMatchObject({ page_views: path === '/sync' ? 2 : 1, value: 49 });
      expect((recorded.custom_events as string[]).sort()).toEqual(['cart_viewed', 'purchase']);
      // Once loaded, vtr is the agent itself.
      expect(await page.evaluate(() => (window as any).vtr.event('later'))).toEqual({ success: true });
      expect(errors).toEqual([]);
      expect(warnings).toEqual(["vtr: event not recorded: name must be a string, e.g. vtr.event('signup')"]);
      await page.close();
    });
  }

  it('vtr.probe: called before the agent has loaded, through the documented stub, resolves with the probe id', async () => {
    const page = await live.browser.newPage();
    await page.goto(`${live.origin}/probe`);
    await page.waitForFunction(() => (window as any).early !== undefined, null, { timeout: WAIT });
    expect(await page.evaluate(() => (window as any).early)).toBe(await page.evaluate(() => (window as any).vtr.probeId()));
    expect(await page.evaluate(() => (window as any).early)).toMatch(/^prb_/);
    await page.close();
  });

  it('vtr.probeId/sessionId: called before the agent has loaded, through the documented stub, return null; once it has, the current ones', async () => {
    const page = await live.browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${live.origin}/ids`);
    await page.waitForFunction(() => !!(window as any).vtr?.sessionId?.(), null, { timeout: WAIT });
    expect(errors).toEqual([]);
    expect(await page.evaluate(() => (window as any).early)).toEqual([null, null]);
    expect(await page.evaluate(() => (window as any).vtr.probeId())).toMatch(/^prb_/);
    await page.close();
  });

  it('stub: calls queued for an agent that disables itself settle as failures, and so do later ones', async () => {
    const page = await live.browser.newPage();
    const warnings: string[] = [];
    page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
    await page.goto(`${live.origin}/disabled`);
    await page.waitForFunction(() => (window as any).answers?.length === 3, null, { timeout: WAIT });
    expect(await page.evaluate(() => (window as any).answers)).toEqual([null, { success: false, message: 'the agent is disabled: Error: refused' }, null]);
    expect(await page.evaluate(() => (window as any).vtr.event('later'))).toEqual({ success: false, message: 'the agent is disabled: Error: refused' });
    expect(warnings).toEqual(['vtr: agent disabled: Error: refused']);
    await page.close();
  });
});

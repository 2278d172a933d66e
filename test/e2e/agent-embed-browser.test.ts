// The agent as sites embed it, in a real browser, on a page of another origin than the emulator's:
// a visitor whose browser refuses localStorage (site data blocked), and a page that includes the
// agent twice.
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { BROWSER_TESTS_RUN } from '../helpers/browser.js';
import { agentOnShopPages } from '../helpers/agent-browser.js';

const WAIT = 30_000;

// What a browser blocking site data does: reading the storage throws a SecurityError, and cookies
// are silently not kept.
const blockStorage = (kinds: Array<'localStorage' | 'sessionStorage' | 'cookie'>) => {
  for (const kind of kinds) {
    if (kind === 'cookie') {
      Object.defineProperty(Document.prototype, 'cookie', { configurable: true, get: () => '', set: () => {} });
    } else {
      Object.defineProperty(window, kind, { configurable: true, get: () => { throw new DOMException('Access is denied for this document.', 'SecurityError'); } });
    }
  }
};

describe.skipIf(!BROWSER_TESTS_RUN)('the agent embedded on a site', { timeout: 180_000 }, () => {
  const live = agentOnShopPages((server) => {
    const agent = `${server.origin}/agent.js`;
    const key = server.site!.site_key;
    const pages = new Map<string, string>();
    pages.set('/', `<script src="${agent}" data-site-key="${key}"></script><h1>Shop</h1>`);
    // A theme includes the agent bare, the site's own snippet includes it again with the key.
    pages.set('/twice', `<script src="${agent}"></script><h1>Shop</h1><script src="${agent}" data-site-key="${key}"></script>`);
    pages.set('/twice-keyed', `<script src="${agent}" data-site-key="${key}"></script><h1>Shop</h1><script src="${agent}" data-site-key="${key}"></script>`);
    // A tag manager injecting a bare copy once the page has loaded, then the keyed one.
    pages.set('/twice-injected', `<h1>Shop</h1><script>
      const add = (key) => new Promise((res) => { const s = document.createElement('script'); s.src = ${JSON.stringify(agent)}; if (key) s.setAttribute('data-site-key', key); s.onload = res; document.body.appendChild(s); });
      window.addEventListener('load', () => add(null).then(() => add(${JSON.stringify(key)})));
    </script>`);
    return (path) => pages.get(path) ?? '';
  });

  const session = (id: string) => live.session(id);
  const sessionOf = async (page: Page) => {
    await page.waitForFunction(() => !!(window as any).vtr?.sessionId(), null, { timeout: WAIT });
    return (await page.evaluate(() => (window as any).vtr.sessionId())) as string;
  };
  const withWarnings = (page: Page) => {
    const warnings: string[] = [];
    page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
    return warnings;
  };

  const blocked: Array<[string, Array<'localStorage' | 'sessionStorage' | 'cookie'>]> = [
    ['localStorage', ['localStorage']],
    ['localStorage and sessionStorage', ['localStorage', 'sessionStorage']],
  ];
  for (const [what, kinds] of blocked) {
    it(`pageview: with ${what} blocked, the visitor's next page loads and tabs stay in one session`, async () => {
      const context: BrowserContext = await live.browser.newContext();
      await context.addInitScript(blockStorage, kinds);
      const page = await context.newPage();
      const warnings = withWarnings(page);
      await page.goto(`${live.origin}/`);
      const first = await sessionOf(page);
      await page.goto(`${live.origin}/?page=2`);
      expect(await sessionOf(page)).toBe(first);
      await page.reload();
      expect(await sessionOf(page)).toBe(first);
      // A link opened in another tab is the same visitor too.
      const tab = await context.newPage();
      await tab.goto(`${live.origin}/?page=3`);
      expect(await sessionOf(tab)).toBe(first);
      expect(await session(first)).toMatchObject({ page_views: 4, returned: false });
      expect(warnings).toEqual([]);
      await context.close();
    });
  }

  it('pageview: with nothing able to store, every page load still records its page view and events, without a warning', async () => {
    const context = await live.browser.newContext();
    await context.addInitScript(blockStorage, ['localStorage', 'sessionStorage', 'cookie'] as Array<'localStorage' | 'sessionStorage' | 'cookie'>);
    const page = await context.newPage();
    const warnings = withWarnings(page);
    await page.goto(`${live.origin}/`);
    const first = await sessionOf(page);
    expect(await page.evaluate(() => (window as any).vtr.pageview())).toMatchObject({ session_id: first });
    expect(await page.evaluate(() => (window as any).vtr.event('signup'))).toEqual({ success: true });
    expect(await session(first)).toMatchObject({ page_views: 2, custom_events: ['signup'] });
    expect(warnings).toEqual([]);
    await context.close();
  });

  for (const path of ['/twice', '/twice-keyed', '/twice-injected']) {
    it(`agent loaded twice (${path}): one session with one page view, and events are recorded`, async () => {
      const context = await live.browser.newContext();
      const page = await context.newPage();
      const warnings = withWarnings(page);
      const views: string[] = [];
      page.on('request', (r) => r.url().endsWith('/_vtr/agent/pageview') && views.push(r.url()));
      await page.goto(`${live.origin}${path}`);
      const id = await sessionOf(page);
      expect(await page.evaluate(() => (window as any).vtr.event('signup'))).toEqual({ success: true });
      expect(await session(id)).toMatchObject({ page_views: 1, custom_events: ['signup'] });
      expect(views).toHaveLength(1);
      // The bare copy injected on its own says it has no key yet; the static tags say nothing.
      if (path !== '/twice-injected') expect(warnings).toEqual([]);
      await context.close();
    });
  }

  it("vtr.event: a value given bare (vtr.event('purchase', 49)) is refused saying it goes in { value: 49 }, not recorded without its value", async () => {
    const context = await live.browser.newContext();
    const page = await context.newPage();
    const warnings = withWarnings(page);
    await page.goto(`${live.origin}/`);
    const id = await sessionOf(page);
    for (const opts of [49, '49', true]) {
      expect(await page.evaluate((o) => (window as any).vtr.event('purchase', o), opts), JSON.stringify(opts))
        .toEqual({ success: false, message: 'the value goes in an object: { value: 49 }' });
    }
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toBe('vtr: event not recorded: the value goes in an object: { value: 49 }');
    expect(await page.evaluate(() => (window as any).vtr.event('purchase', { value: 49 }))).toEqual({ success: true });
    expect(await session(id)).toMatchObject({ custom_events: ['purchase'], value: 49 });
    await context.close();
  });
});

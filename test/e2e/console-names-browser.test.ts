// The console as a screen reader meets it (headless Chromium through playwright-core): the
// accessible names Chromium computes (its accessibility tree, over CDP) of the links, buttons and
// disclosures repeated on every row or card. A screen reader's list of links or controls shows
// them without their row, so two that lead to different places must not share a name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { runCli, startServer, type ServerProcess } from '../helpers/vtr-process.js';
import { BROWSER_TESTS_RUN, controlNames, launchChromium } from '../helpers/browser.js';

const suite = BROWSER_TESTS_RUN ? describe : describe.skip;
const repeated = (names: string[]) => [...new Set(names.filter((n, i) => names.indexOf(n) !== i))];

suite('console: accessible names of repeated controls (browser)', () => {
  let server: ServerProcess;
  let browser: Browser;
  let page: Page;
  const hooks: { webhook_id: string }[] = [];

  const cli = async (...args: string[]) => {
    const r = await runCli([...args, '--json'], { env: server.env });
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout);
  };

  beforeAll(async () => {
    server = await startServer(['--memory']);
    browser = await launchChromium();
    page = await browser.newPage();
    page.setDefaultTimeout(30_000);
    // Two of everything the console lists in rows or cards.
    await cli('sites', 'update', 'default', '--plan', 'paid');
    await cli('sites', 'create', '--name', 'Shop');
    await cli('tokens', 'create');
    await cli('views', 'create', '--name', 'Bad traffic', '--filter', 'risk_level = invalid');
    await cli('views', 'create', '--name', 'Paid traffic', '--filter', 'channel = paid');
    await cli('webhooks', 'create', '--url', 'http://127.0.0.1:9/a');
    hooks.push(await cli('webhooks', 'create', '--url', 'http://127.0.0.1:9/b'));
    // The same URL twice is allowed (two subscriptions of one receiver): the id tells them apart.
    hooks.push(await cli('webhooks', 'create', '--url', 'http://127.0.0.1:9/b'));
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('sites, tokens, views, webhooks: no two row controls share a name, and each names its row', async () => {
    const expected: Record<string, string[]> = {
      sites: ['link: Sessions of Shop', 'link: Checks of Shop', 'link: Access tokens of Shop', 'DisclosureTriangle: Settings of Shop', 'DisclosureTriangle: Reveal secret key of Shop'],
      tokens: ['button: Copy access token ', 'DisclosureTriangle: Reveal access token '],
      views: ['link: Matching sessions of Bad traffic', 'link: Matching sessions of Paid traffic'],
      webhooks: ['link: Events of webhook http://127.0.0.1:9/a (wh_', 'DisclosureTriangle: Reveal secret of webhook http://127.0.0.1:9/b (wh_'],
    };
    for (const h of hooks) {
      expected.webhooks.push(`link: Events of webhook http://127.0.0.1:9/b (${h.webhook_id})`, `button: Disable webhook http://127.0.0.1:9/b (${h.webhook_id})`,
        `button: Delete webhook http://127.0.0.1:9/b (${h.webhook_id})`, `DisclosureTriangle: Reveal secret of webhook http://127.0.0.1:9/b (${h.webhook_id})`);
    }
    for (const [path, wanted] of Object.entries(expected)) {
      await page.goto(`${server.origin}/_vtr/console/${path}`);
      const names = await controlNames(page);
      expect(repeated(names), path).toEqual([]);
      for (const w of wanted) expect(names.some((n) => n.startsWith(w)), `${path}: ${w} in ${names.join(' | ')}`).toBe(true);
    }
  });

  it('views, rules, sites: two of one name each have their own control names, told apart by their ids', async () => {
    const views = [await cli('views', 'create', '--name', 'Hot leads', '--filter', 'channel = paid'), await cli('views', 'create', '--name', 'Hot leads', '--filter', 'channel = direct')];
    const rules = [await cli('rules', 'create', '--name', 'Tor', '--filter', 'risks contains tor', '--action', 'block'), await cli('rules', 'create', '--name', 'Tor', '--filter', 'risks contains vpn', '--action', 'review')];
    const sites = [await cli('sites', 'create', '--name', 'Twin'), await cli('sites', 'create', '--name', 'Twin')];
    const wanted: Record<string, string[]> = {
      views: views.flatMap((v) => [`link: Matching sessions of Hot leads (${v.saved_view_id})`, `link: Edit Hot leads (${v.saved_view_id})`, `button: Delete Hot leads (${v.saved_view_id})`]),
      rules: rules.flatMap((r) => [`link: Edit Tor (${r.rule_id})`, `button: Disable Tor (${r.rule_id})`]),
      sites: sites.flatMap((t) => [`link: Sessions of Twin (${t.site_id})`, `button: Rotate the keys of Twin (${t.site_id})`, `DisclosureTriangle: Settings of Twin (${t.site_id})`]),
    };
    for (const [path, names] of Object.entries(wanted)) {
      await page.goto(`${server.origin}/_vtr/console/${path}`);
      const seen = await controlNames(page);
      expect(repeated(seen), path).toEqual([]);
      for (const n of names) expect(seen, path).toContain(n);
    }
  });

  it('request log: each row’s View names its request, on rows rendered by the server and rows added live', async () => {
    await cli('check', '--email', 'a@example.com');
    await page.goto(`${server.origin}/_vtr/console/logs`);
    await page.locator('#live.on').waitFor();
    await cli('check', '--email', 'b@example.com');
    await expect.poll(() => page.locator('tbody#rows tr').count(), { timeout: 30_000, interval: 100 }).toBeGreaterThan(1);
    const views = (await controlNames(page)).filter((n) => n.startsWith('DisclosureTriangle: View'));
    expect(views.length).toBe(2);
    for (const v of views) expect(v).toMatch(/^DisclosureTriangle: View bodies of POST \/api\/v1\/event at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
  });
});

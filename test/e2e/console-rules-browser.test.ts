// The rules page in a real browser (headless Chromium through playwright-core) against `vtr serve`:
// a rule made, changed or deleted elsewhere (the CLI, another tab) shows on the open page, and so
// does a site made or renamed elsewhere in the page's site links.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startServer, type ServerProcess } from '../helpers/vtr-process.js';
import { BROWSER_TESTS_RUN, launchChromium } from '../helpers/browser.js';
import { adminApi } from '../helpers/admin.js';

const suite = BROWSER_TESTS_RUN ? describe : describe.skip;

suite('rules in the console (browser)', () => {
  let server: ServerProcess;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startServer(['--memory']);
    browser = await launchChromium();
    page = await browser.newPage();
    page.setDefaultTimeout(30_000);
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const api = <T = any>(method: string, path: string, body?: unknown) => adminApi<T>(server.origin, method, path, body);
  const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 30_000, interval: 100 });

  it('rules page: a rule made, changed or deleted elsewhere shows on the open page, the form keeping what is typed', async () => {
    const site = server.defaultSite!.site_id;
    await page.goto(`${server.origin}/_vtr/console/rules?site=${site}`);
    await page.locator('#live.on').waitFor();
    await page.fill('#rule-name', 'Half typed');
    const rule = await api<{ rule_id: string }>('POST', `/sites/${site}/rules`, { name: 'Made elsewhere', filter: 'risks contains tor', action: 'block' });
    const row = page.locator(`#rule-${rule.rule_id}`);
    await poll(() => row.count()).toBe(1);
    await api('PATCH', `/sites/${site}/rules/${rule.rule_id}`, { enabled: false });
    await poll(() => row.innerText()).toContain('disabled');
    await api('DELETE', `/sites/${site}/rules/${rule.rule_id}`);
    await poll(() => row.count()).toBe(0);
    expect(await page.inputValue('#rule-name')).toBe('Half typed');
  });

  it('rules page: a site created or renamed elsewhere shows in its site links at once; a rename of the open site shows in its rules', async () => {
    const site = server.defaultSite!.site_id;
    await page.goto(`${server.origin}/_vtr/console/rules?site=${site}`);
    await page.locator('#live.on').waitFor();
    const made = await api<{ site_id: string }>('POST', '/sites', { name: 'Made elsewhere' });
    const link = page.getByRole('link', { name: `Made elsewhere (${made.site_id})` });
    await poll(() => link.count()).toBe(1);
    await api('PATCH', `/sites/${made.site_id}`, { name: 'Renamed elsewhere' });
    await poll(() => page.getByRole('link', { name: `Renamed elsewhere (${made.site_id})` }).count()).toBe(1);
    await api('PATCH', `/sites/${site}`, { name: 'Open site renamed' });
    await poll(() => page.getByRole('region', { name: 'Rules of Open site renamed' }).count()).toBe(1);
    await poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Rules of Open site renamed');
    await poll(() => page.getByRole('link', { name: `Open site renamed (${site})` }).getAttribute('aria-current')).toBe('page');
  });
});

// The Sites & keys page in a real browser (headless Chromium through playwright-core) against
// `vtr serve`: a site made, renamed or given new keys elsewhere (the CLI, the API, another tab)
// shows on the open page, the reader's place (focus, an open Settings) kept.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startServer, type ServerProcess } from '../helpers/vtr-process.js';
import { BROWSER_TESTS_RUN, launchChromium } from '../helpers/browser.js';
import { adminApi } from '../helpers/admin.js';

const suite = BROWSER_TESTS_RUN ? describe : describe.skip;

suite('sites in the console (browser)', () => {
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

  it('sites page: a site made, renamed or given new keys elsewhere shows at once; focus and an open Settings stay where they were', async () => {
    const site = await api<{ site_id: string; name: string }>('GET', '/sites/default');
    const name = `${site.name} (${site.site_id})`;
    await page.goto(`${server.origin}/_vtr/console/sites`);
    await page.locator('#live.on').waitFor();
    await page.getByRole('group').filter({ has: page.getByLabel(`Settings of ${name}`) }).locator('summary').click();
    await page.getByRole('button', { name: `Copy site id of ${name}` }).focus();

    const made = await api<{ site_id: string }>('POST', '/sites', { name: 'Made elsewhere' });
    await poll(() => page.getByRole('heading', { name: 'Made elsewhere', level: 2 }).count()).toBe(1);
    await api('PATCH', `/sites/${made.site_id}`, { name: 'Renamed elsewhere' });
    await poll(() => page.getByRole('heading', { name: 'Renamed elsewhere', level: 2 }).count()).toBe(1);
    const rotated = await api<{ site_key: string }>('POST', `/sites/${site.site_id}/keys/rotate`);
    await poll(() => page.locator(`#site-card-${site.site_id}`).innerText()).toContain(rotated.site_key);

    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(`Copy site id of ${name}`);
    expect(await page.locator(`#site-card-${site.site_id} details:has(summary[aria-label="Settings of ${name}"])`).getAttribute('open')).not.toBeNull();
  });
});

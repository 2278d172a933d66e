// The console in a real browser (headless Chromium through playwright-core) against `vtr serve`:
// live rows from the event stream, the session page, filters, copy buttons, the admin-token form.
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { runCli, startServer, type ServerProcess } from '../helpers/vtr-process.js';
import { BROWSER_TESTS_RUN, launchChromium } from '../helpers/browser.js';

const suite = BROWSER_TESTS_RUN ? describe : describe.skip;
export const PHONE_SCREENSHOT = join(tmpdir(), 'vtr-console-phone.png');

suite('console in a browser', () => {
  let server: ServerProcess;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    server = await startServer(['--memory']);
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.origin });
    context.setDefaultTimeout(20_000);
    page = await context.newPage();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const cli = async (...args: string[]) => {
    const r = await runCli([...args, '--json'], { env: server.env });
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout);
  };

  it('a session made with the CLI appears live; its page shows it and follows changes', async () => {
    await page.goto(`${server.origin}/`);
    await expect.poll(() => page.url(), { timeout: 30_000, interval: 100 }).toContain('/_vtr/console/sessions');
    await page.locator('#live.on').waitFor(); // the event stream is connected
    const made = await cli('sessions', 'create', '--ip', '203.0.113.7');
    const row = page.locator(`[id="row-${made.session_id}"]`);
    await row.waitFor();
    await expect.poll(() => row.locator('.badge').textContent(), { timeout: 30_000, interval: 100 }).toBe('invalid');

    await row.getByRole('link', { name: made.session_id }).click();
    await page.getByRole('heading', { level: 1, name: `Session ${made.session_id}` }).waitFor();
    expect(await page.locator('dl.fields').textContent()).toContain('203.0.113.7');
    await page.locator('#live.on').waitFor();
    await cli('session', 'event', made.session_id, 'signup');
    await page.locator('#session-body ol li', { hasText: 'signup' }).waitFor();
  });

  it('filters the list, and shows a bad filter’s error with a caret', async () => {
    const clean = await cli('sessions', 'create', '--ip', '192.0.2.55');
    const invalid = await cli('sessions', 'create', '--ip', '203.0.113.8'); // an invalid one for the filter to find
    await page.goto(`${server.origin}/_vtr/console/sessions`);
    await page.getByLabel('Filter').fill('risk_level = invalid');
    await page.getByRole('button', { name: 'Apply' }).click();
    // The filtered page has loaded once its URL says so and its rows are there (the URL changes first).
    await page.waitForURL(/where=risk_level/, { timeout: 30_000, waitUntil: 'load' });
    await page.locator(`[id="row-${invalid.session_id}"]`).waitFor();
    expect(await page.locator(`[id="row-${clean.session_id}"]`).count()).toBe(0);
    expect(await page.locator('tbody#rows .badge').allTextContents()).toEqual(expect.arrayContaining(['invalid']));

    await page.getByLabel('Filter').fill('risk_level == invalid');
    await page.getByRole('button', { name: 'Apply' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.locator('pre').textContent()).toBe('risk_level == invalid\n           ^');
  });

  it('sessions: a filter that does not parse leaves the focus in the filter field, marked invalid and described by the error', async () => {
    await page.goto(`${server.origin}/_vtr/console/sessions`);
    await page.getByRole('searchbox', { name: 'Filter' }).fill('risk_level ==');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/where=risk_level/, { timeout: 30_000, waitUntil: 'load' });
    await page.getByRole('alert').waitFor();
    const focused = () => page.evaluate(() => [document.activeElement?.id, document.activeElement?.getAttribute('aria-invalid'), document.activeElement?.getAttribute('aria-describedby')]);
    await expect.poll(focused, { timeout: 30_000, interval: 100 }).toEqual(['where', 'true', 'where-help filter-error']);
  });

  it('sessions: a filtered list shows live a session that comes to match through a change (a custom event)', async () => {
    const later = await cli('sessions', 'create', '--ip', '192.0.2.57'); // matches once the event is added
    await page.goto(`${server.origin}/_vtr/console/sessions?where=${encodeURIComponent('custom_events contains "signup"')}`);
    await page.locator('#live.on').waitFor();
    const row = page.locator(`[id="row-${later.session_id}"]`);
    expect(await row.count()).toBe(0);
    await cli('session', 'event', later.session_id, 'signup');
    await row.waitFor();
  });

  it('copies keys to the clipboard and logs public requests live', async () => {
    await page.goto(`${server.origin}/_vtr/console/sites`);
    const siteKey = server.site!.site_key;
    await page.getByRole('button', { name: /Copy site key/ }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText()), { timeout: 30_000, interval: 100 }).toBe(siteKey);

    await page.goto(`${server.origin}/_vtr/console/logs`);
    await page.locator('#live.on').waitFor();
    await fetch(`${server.baseUrl}/session/ses_from_the_test`, { headers: { authorization: `Bearer ${server.site!.access_token}` } });
    const row = page.locator('tbody#rows tr', { hasText: '/api/v1/session/ses_from_the_test' });
    await row.waitFor();
    // A live row's time is shown as the server renders one: with its zone, and the "(emulated)"
    // mark that only a frozen or manual clock's page shows.
    const time = row.locator('time');
    expect(await time.innerText()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/);
    expect(await time.textContent()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC \(emulated\)$/);
  });

  it('a live request-log row without a site shows the dash, as the page does after a reload', async () => {
    await page.goto(`${server.origin}/_vtr/console/logs`);
    await page.locator('#live.on').waitFor();
    await fetch(`${server.baseUrl}/event`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ secret_key: 'sk_test_notThisOne' }) });
    const row = page.locator('tbody#rows tr', { hasText: '/api/v1/event' }).first();
    await row.waitFor();
    const siteCell = () => row.locator('td').nth(5);
    expect(await siteCell().innerText()).toBe('—');
    const live = await siteCell().innerHTML();
    await page.reload();
    expect(await siteCell().innerHTML()).toBe(live);
  });

  it('a check page shows the probe time as every console time does, in UTC', async () => {
    const pv = await fetch(`${server.origin}/_vtr/agent/pageview`, {
      method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ site_key: server.site!.site_key, url: 'http://127.0.0.1:5173/' }),
    }).then((r) => r.json());
    const check = await cli('check', '--probe-id', pv.probe_id, '--ip', '127.0.0.1');
    await page.goto(`${server.origin}/_vtr/console/checks/${check.id}`);
    const shown = page.locator('#sec-device ~ dl dt', { hasText: /^probe_created_at$/ }).locator('xpath=following-sibling::dd[1]');
    expect(await shown.innerText()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/);
  });

  it('is usable at phone width (no page-wide horizontal scroll)', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    try {
      await cli('sessions', 'create', '--ip', '192.0.2.56'); // a row to lay out
      const p = await phone.newPage();
      await p.goto(`${server.origin}/_vtr/console/sessions`);
      await p.locator('tbody#rows tr').first().waitFor();
      const overflow = await p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(1);
      await p.screenshot({ path: PHONE_SCREENSHOT });
    } finally {
      await phone.close();
    }
  });

  it('a refused long filter at phone width shows its caret, scrolled into the error box', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
    try {
      const p = await phone.newPage();
      const where = 'risk_level in (suspicious, invalid) and channel = paid and source contains "newsletter" and country_code == US';
      await p.goto(`${server.origin}/_vtr/console/sessions?where=${encodeURIComponent(where)}`);
      const pre = p.getByRole('alert').locator('pre');
      await pre.waitFor();
      const seen = await pre.evaluate((el) => {
        const text = el.firstChild!;
        const range = document.createRange();
        const at = text.textContent!.lastIndexOf('^');
        range.setStart(text, at);
        range.setEnd(text, at + 1);
        const caret = range.getBoundingClientRect();
        const box = el.getBoundingClientRect();
        return caret.left >= box.left && caret.right <= box.right;
      });
      expect(seen).toBe(true);
    } finally {
      await phone.close();
    }
  });

  it('Back after rotating keys shows the keys in force, not the old ones from a cache', async () => {
    const site = await cli('sites', 'create', '--name', 'Rotated');
    await page.goto(`${server.origin}/_vtr/console/sites`);
    page.once('dialog', (d) => void d.accept());
    await Promise.all([page.waitForURL('**/sites?rotated=**'), page.locator(`form[action$="/sites/${site.site_id}/rotate"] button`).click()]);
    const rotated = await cli('sites', 'show', site.site_id);
    expect(rotated.secret_key).not.toBe(site.secret_key);
    await page.goBack();
    const shown = (await page.locator(`#site-card-${site.site_id}`).textContent())!;
    expect(shown).toContain(rotated.secret_key);
    expect(shown).not.toContain(site.secret_key);
  });

  it('tokens: each Revoke button names its token, so the one pressed (by name, as a screen reader does) is the one revoked', async () => {
    const site = await cli('sites', 'create', '--name', 'Two tokens');
    const [first, second] = [await cli('tokens', 'create', '--site', site.site_id), await cli('tokens', 'create', '--site', site.site_id)];
    await page.goto(`${server.origin}/_vtr/console/tokens`);
    const shortened = (t: string) => `${t.slice(0, 12)}…${t.slice(-4)}`;
    page.once('dialog', (d) => void d.accept());
    await Promise.all([page.waitForURL('**/tokens?done=revoked'), page.getByRole('button', { name: `Revoke access token ${shortened(second.token)}` }).click()]);
    const tokens: Array<{ token: string; revoked_at: string | null }> = await cli('tokens', 'list', '--site', site.site_id);
    expect(tokens.find((t) => t.token === second.token)?.revoked_at).not.toBeNull();
    expect(tokens.find((t) => t.token === first.token)?.revoked_at).toBeNull();
  });

  it('sites: each Rotate keys button is named after its site, so the one pressed by name rotates that site only', async () => {
    const [one, two] = [await cli('sites', 'create', '--name', 'Shop one'), await cli('sites', 'create', '--name', 'Shop two')];
    await page.goto(`${server.origin}/_vtr/console/sites`);
    page.once('dialog', (d) => void d.accept());
    await Promise.all([page.waitForURL('**/sites?rotated=**'), page.getByRole('button', { name: 'Rotate the keys of Shop two' }).click()]);
    expect((await cli('sites', 'show', two.site_id)).secret_key).not.toBe(two.secret_key);
    expect((await cli('sites', 'show', one.site_id)).secret_key).toBe(one.secret_key);
  });
});

suite('console with --admin-token in a browser', () => {
  it('asks for the token once (its field focused, a wrong one refused), then works (pages and the live stream)', async () => {
    const server = await startServer(['--memory', '--admin-token', 'browser-secret']);
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      page.setDefaultTimeout(20_000);
      await page.goto(`${server.origin}/_vtr/console/sessions`);
      // The form's one field has the keyboard focus, after a wrong token too: type, Enter.
      await page.keyboard.type('not-the-token');
      await page.keyboard.press('Enter');
      await page.getByRole('alert').filter({ hasText: 'That is not the admin token.' }).waitFor();
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('admin_token');
      await page.getByLabel('Admin token').fill('browser-secret');
      await page.getByRole('button', { name: 'Open the console' }).click();
      await page.getByRole('heading', { level: 1, name: 'Sessions' }).waitFor();
      expect(page.url()).not.toContain('browser-secret');
      await page.locator('#live.on').waitFor();
    } finally {
      await browser.close();
      await server.stop();
    }
  }, 90_000);

  it('a button pressed once the token cookie is gone asks for the token, then goes back to its page (not a JSON error)', async () => {
    const server = await startServer(['--memory', '--admin-token', 'browser-secret']);
    const browser = await launchChromium();
    try {
      const context = await browser.newContext();
      const page = await context.newPage();
      page.setDefaultTimeout(20_000);
      await page.goto(`${server.origin}/_vtr/console/tokens?admin_token=browser-secret`);
      await page.getByRole('heading', { level: 1, name: 'Access tokens' }).waitFor();
      await context.clearCookies(); // an emulator restarted with another token, or the cookie cleared
      await page.getByRole('button', { name: 'Create token' }).click();
      await page.getByLabel('Admin token').waitFor();
      expect(await page.locator('body').innerText()).not.toContain('"code"');
      await page.getByLabel('Admin token').fill('browser-secret');
      await page.getByRole('button', { name: 'Open the console' }).click();
      await page.getByRole('heading', { level: 1, name: 'Access tokens' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/_vtr/console/tokens');
    } finally {
      await browser.close();
      await server.stop();
    }
  }, 90_000);
});

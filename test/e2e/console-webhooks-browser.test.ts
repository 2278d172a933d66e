// Saved views and webhooks in a real browser (headless Chromium through playwright-core) against
// `vtr serve --clock manual`: the forms, a failing delivery's attempts arriving live, the Retry
// button disabled (with why) while automatic retries run and enabled once they are done, a manual
// retry that delivers. The manual clock makes each retry happen when the test says (`vtr clock
// advance`), so a loaded machine cannot race past the states the test looks at.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { runCli, startServer, type ServerProcess } from '../helpers/vtr-process.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { BROWSER_TESTS_RUN, launchChromium } from '../helpers/browser.js';

const suite = BROWSER_TESTS_RUN ? describe : describe.skip;
export const SCREENSHOTS = join(tmpdir(), 'vtr-console-webhooks');
const shot = (name: string) => join(SCREENSHOTS, `${name}.png`);

suite('saved views and webhooks in the console (browser)', () => {
  let server: ServerProcess;
  let rx: Receiver;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const state: { tor?: string; hook?: string; event?: string } = {};
  mkdirSync(SCREENSHOTS, { recursive: true });

  beforeAll(async () => {
    rx = await startReceiver({ answer: () => 500 });
    // Retries an hour apart on the manual clock: none runs until the test advances it.
    server = await startServer(['--memory', '--clock', 'manual', '--retry-schedule', '1h,1h,1h,1h,1h']);
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.origin });
    context.setDefaultTimeout(30_000);
    page = await context.newPage();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await rx?.close();
  });

  const cli = async (...args: string[]) => {
    const r = await runCli([...args, '--json'], { env: server.env, timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout);
  };
  const live = (p: Page) => p.locator('#live.on').waitFor();
  // vitest's default poll gives up after 1 s; a loaded machine needs longer.
  const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 30_000, interval: 100 });

  it('a session made with the CLI appears live and opens', async () => {
    await page.goto(`${server.origin}/`);
    await live(page);
    const s = await cli('sessions', 'create', '--ip', '192.0.2.10');
    const row = page.locator(`[id="row-${s.session_id}"]`);
    await row.getByRole('link', { name: s.session_id }).click();
    await page.getByRole('heading', { level: 1, name: `Session ${s.session_id}` }).waitFor();
    expect(await page.locator('#session-webhook-events').textContent()).toContain('None');
  }, 90_000);

  it('creates a saved view (a bad filter first: its caret) and a webhook through the forms', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Saved views' }).click();
    await page.getByRole('heading', { level: 1, name: 'Saved views' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Tor exits');
    await page.getByLabel('Filter', { exact: true }).fill('risk_level == invalid');
    expect(await page.getByLabel('Trigger webhooks when a session newly matches').isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Create view' }).click();
    expect(await page.getByRole('alert').locator('pre').textContent()).toBe('risk_level == invalid\n            ^');
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Tor exits'); // what was typed stays
    await page.screenshot({ path: shot('views-error-desktop'), fullPage: true });
    await page.getByLabel('Filter', { exact: true }).fill('risk_level = invalid');
    await page.getByRole('button', { name: 'Create view' }).click();
    await page.getByText('Created the saved view.').waitFor();
    await page.getByRole('row', { name: /Tor exits/ }).waitFor();

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
    await page.getByLabel('URL', { exact: true }).fill(rx.url);
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await page.getByText(/Created webhook wh_/).waitFor();
    const [hook] = await cli('webhooks', 'list');
    state.hook = hook.webhook_id;
    expect(hook.url).toBe(rx.url);
    await page.getByRole('button', { name: 'Copy secret of the new webhook' }).click();
    await poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(hook.secret);
    await page.screenshot({ path: shot('webhooks-desktop'), fullPage: true });
  }, 90_000);

  it('shows the failing delivery live; Retry stays disabled until the automatic retries are done', async () => {
    // A second tab stays on the webhook's event history to watch its row follow the retries.
    const history = await context.newPage();
    try {
      await history.goto(`${server.origin}/_vtr/console/webhooks/${state.hook}`);
      await page.getByRole('row', { name: new RegExp(rx.url) }).getByRole('link', { name: 'Events' }).click();
      await page.getByRole('heading', { level: 1, name: `Webhook ${state.hook}` }).waitFor();
      await Promise.all([live(history), live(page)]);
      const tor = await cli('sessions', 'create', '--ip', '203.0.113.9');
      state.tor = tor.session_id;
      const [ev] = await cli('webhooks', 'events', state.hook!);
      state.event = ev.webhook_event_id;
      const histRow = history.locator(`[id="ev-${state.event}"]`);
      await poll(() => histRow.locator('.badge').first().textContent()).toBe('retrying');

      await page.getByRole('link', { name: state.event }).click();
      await page.getByRole('heading', { level: 1, name: `Webhook event ${state.event}` }).waitFor();
      await live(page);
      const retry = page.getByRole('button', { name: 'Retry' });
      const reason = page.locator('#retry-reason');
      const attempts = page.locator('tbody#attempts tr');
      await poll(() => attempts.count()).toBe(1);
      expect(await retry.isDisabled()).toBe(true);
      expect(await reason.textContent()).toMatch(/Automatic retries in progress — next attempt at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
      await page.screenshot({ path: shot('event-retrying-desktop'), fullPage: true });

      // Each hour's move runs the one retry due on the way (the next is an hour after it ran); its
      // row arrives over the event stream.
      for (let n = 2; n <= 6; n++) {
        await cli('clock', 'advance', '1h');
        await poll(() => attempts.count()).toBe(n);
        if (n < 6) expect(await retry.isDisabled()).toBe(true);
      }
      await poll(() => retry.isEnabled()).toBe(true);
      expect(await reason.textContent()).toContain('Automatic retries are done');
      expect(await page.locator('#ev-h .badge').textContent()).toBe('failed');
      expect(await attempts.nth(5).textContent()).toContain('500');
      await page.screenshot({ path: shot('event-failed-desktop'), fullPage: true });
      // The history tab followed without a reload.
      await poll(() => histRow.locator('td').nth(3).textContent()).toBe('6');
      expect(await histRow.locator('.badge').first().textContent()).toBe('failed');
    } finally {
      await history.close();
    }
  }, 150_000);

  it('retries by hand once the receiver works, and shows the event delivered', async () => {
    // A tab on the session's page, which lists the event it caused and follows it live.
    const sessionTab = await context.newPage();
    await sessionTab.goto(`${server.origin}/_vtr/console/sessions/${state.tor}`);
    const sec = sessionTab.locator('#session-webhook-events');
    await sec.getByRole('link', { name: state.event! }).waitFor();
    expect(await sec.locator('.badge').first().textContent()).toBe('failed');
    await live(sessionTab);

    rx.answer(() => 200);
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByText(/Retried: attempt 7 was delivered/).waitFor();
    expect(await page.locator('#ev-h .badge').textContent()).toBe('delivered');
    const last = page.locator('tbody#attempts tr').nth(6);
    expect(await last.textContent()).toContain('manual');
    expect(await last.textContent()).toContain('200');
    expect(await page.getByRole('button', { name: 'Retry' }).isDisabled()).toBe(true);
    expect(await page.locator('#retry-reason').textContent()).toContain('Already delivered');
    await rx.waitFor((ds) => ds.some((d) => d.json.attempt === 7));

    await poll(() => sessionTab.locator('#session-webhook-events .badge').first().textContent()).toBe('delivered');
    await sessionTab.screenshot({ path: shot('session-desktop'), fullPage: true });
    await sessionTab.close();
    // The history shows it delivered too.
    await page.getByRole('link', { name: `← Webhook ${state.hook}` }).click();
    expect(await page.locator(`[id="ev-${state.event}"] .badge`).first().textContent()).toBe('delivered');
  }, 90_000);

  it('is usable at phone width (webhooks and event pages)', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    try {
      const p = await phone.newPage();
      p.setDefaultTimeout(30_000);
      for (const [name, path] of [['webhooks', '/_vtr/console/webhooks'], ['event', `/_vtr/console/webhook-events/${state.event}`], ['views', '/_vtr/console/views']]) {
        await p.goto(`${server.origin}${path}`);
        await p.locator('h1').waitFor();
        const overflow = await p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, name).toBeLessThanOrEqual(1);
        await p.screenshot({ path: shot(`${name}-phone`), fullPage: true });
      }
    } finally {
      await phone.close();
    }
  }, 90_000);
});

// Saved views and webhooks in a real browser (headless Chromium through playwright-core) against
// `vtr serve --clock manual`: the forms, a failing delivery's attempts arriving live, the Retry
// button disabled (with why) while automatic retries run and enabled once they are done, a manual
// retry that delivers. The manual clock makes each retry happen when the test says (`vtr clock
// advance`), so a loaded machine cannot race past the states the test looks at. Each test starts with no
// saved view or webhook and makes its own (the form test through the forms, the others through the
// management API), with its own receiver and tab, so they pass in any order.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { runCli, startServer, type ServerProcess } from '../helpers/vtr-process.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { BROWSER_TESTS_RUN, launchChromium } from '../helpers/browser.js';
import { adminApi } from '../helpers/admin.js';
import { pollUntil } from '../helpers/poll.js';

const suite = BROWSER_TESTS_RUN ? describe : describe.skip;
export const SCREENSHOTS = join(tmpdir(), 'vtr-console-webhooks');
const shot = (name: string) => join(SCREENSHOTS, `${name}.png`);

suite('saved views and webhooks in the console (browser)', () => {
  let server: ServerProcess;
  let browser: Browser;
  let context: BrowserContext;
  /** This test's receiver (failing until the test says otherwise) and tab. */
  let rx: Receiver;
  let page: Page;
  mkdirSync(SCREENSHOTS, { recursive: true });

  beforeAll(async () => {
    // Retries an hour apart on the manual clock: none runs until the test advances it.
    server = await startServer(['--memory', '--clock', 'manual', '--retry-schedule', '1h,1h,1h,1h,1h']);
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.origin });
    context.setDefaultTimeout(30_000);
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  beforeEach(async () => {
    // No view or webhook left by another test: each session below causes only this test's events.
    for (const w of await api<{ webhook_id: string }[]>('GET', '/webhooks')) await api('DELETE', `/webhooks/${w.webhook_id}`);
    for (const v of await api<{ saved_view_id: string }[]>('GET', '/views')) await api('DELETE', `/views/${v.saved_view_id}`);
    rx = await startReceiver({ answer: () => 500 });
    page = await context.newPage();
  });
  afterEach(async () => {
    await page?.close();
    await rx?.close();
  });

  const api = <T = any>(method: string, path: string, body?: unknown) => adminApi<T>(server.origin, method, path, body);
  const cli = async (...args: string[]) => {
    const r = await runCli([...args, '--json'], { env: server.env, timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout);
  };
  const live = (p: Page) => p.locator('#live.on').waitFor();
  // vitest's default poll gives up after 1 s; a loaded machine needs longer.
  const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 30_000, interval: 100 });

  /** The "Tor exits" view and a webhook to this test's receiver, made through the management API. */
  async function viewAndWebhook(): Promise<string> {
    const site = server.defaultSite!.site_id;
    await api('POST', `/sites/${site}/views`, { name: 'Tor exits', filter: 'risk_level = invalid', trigger_webhooks: true });
    const hook = await api<{ webhook_id: string }>('POST', `/sites/${site}/webhooks`, { url: rx.url });
    return hook.webhook_id;
  }
  /** The event an invalid session causes, once `n` attempts of it are recorded. */
  const eventWith = (event: string, n: number) =>
    pollUntil(async () => (await api('GET', `/webhook-events/${event}`)).attempts.length >= n, 30_000, () => `${n} attempts of ${event}`);
  /** A Tor session's event to this test's (failing) receiver, with its first attempt made. */
  async function failingEvent(): Promise<{ hook: string; tor: string; event: string }> {
    const hook = await viewAndWebhook();
    const tor = (await cli('sessions', 'create', '--ip', '203.0.113.9')).session_id as string;
    const [ev] = await api<{ webhook_event_id: string }[]>('GET', `/webhooks/${hook}/events`);
    await eventWith(ev.webhook_event_id, 1);
    return { hook, tor, event: ev.webhook_event_id };
  }

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
    await page.goto(`${server.origin}/`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Saved views' }).click();
    await page.getByRole('heading', { level: 1, name: 'Saved views' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Tor exits');
    await page.getByLabel('Filter', { exact: true }).fill('risk_level == invalid');
    expect(await page.getByLabel('Trigger webhooks when a session newly matches').isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Create view' }).click();
    expect(await page.getByRole('alert').locator('pre').textContent()).toBe('risk_level == invalid\n           ^');
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
    expect(hook.url).toBe(rx.url);
    await page.getByRole('button', { name: 'Copy secret of the new webhook' }).click();
    await poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(hook.secret);
    await page.screenshot({ path: shot('webhooks-desktop'), fullPage: true });
  }, 90_000);

  it('shows the failing delivery live; Retry stays disabled until the automatic retries are done', async () => {
    const hook = await viewAndWebhook();
    // A second tab stays on the webhook's event history to watch its row follow the retries.
    const history = await context.newPage();
    try {
      await history.goto(`${server.origin}/_vtr/console/webhooks/${hook}`);
      await page.goto(`${server.origin}/_vtr/console/webhooks`);
      await page.getByRole('row', { name: new RegExp(rx.url) }).getByRole('link', { name: 'Events' }).click();
      await page.getByRole('heading', { level: 1, name: `Webhook ${hook}` }).waitFor();
      await Promise.all([live(history), live(page)]);
      await cli('sessions', 'create', '--ip', '203.0.113.9');
      const [ev] = await cli('webhooks', 'events', hook);
      const event: string = ev.webhook_event_id;
      const histRow = history.locator(`[id="ev-${event}"]`);
      await poll(() => histRow.locator('.badge').first().textContent()).toBe('retrying');

      await page.getByRole('link', { name: event }).click();
      await page.getByRole('heading', { level: 1, name: `Webhook event ${event}` }).waitFor();
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
    // A failed event: its first attempt and the five automatic retries, each run by an hour's move.
    const { hook, tor, event } = await failingEvent();
    for (let n = 2; n <= 6; n++) {
      await cli('clock', 'advance', '1h');
      await eventWith(event, n);
    }
    expect((await api('GET', `/webhook-events/${event}`)).status).toBe('failed');
    await page.goto(`${server.origin}/_vtr/console/webhook-events/${event}`);
    await page.getByRole('heading', { level: 1, name: `Webhook event ${event}` }).waitFor();
    await live(page);

    // A tab on the session's page, which lists the event it caused and follows it live.
    const sessionTab = await context.newPage();
    await sessionTab.goto(`${server.origin}/_vtr/console/sessions/${tor}`);
    const sec = sessionTab.locator('#session-webhook-events');
    await sec.getByRole('link', { name: event }).waitFor();
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
    await page.getByRole('link', { name: `← Webhook ${hook}` }).click();
    expect(await page.locator(`[id="ev-${event}"] .badge`).first().textContent()).toBe('delivered');
  }, 150_000);

  it('is usable at phone width (webhooks and event pages)', async () => {
    const { event } = await failingEvent();
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    try {
      const p = await phone.newPage();
      p.setDefaultTimeout(30_000);
      for (const [name, path] of [['webhooks', '/_vtr/console/webhooks'], ['event', `/_vtr/console/webhook-events/${event}`], ['views', '/_vtr/console/views']]) {
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

  it('webhooks page: a webhook made or deleted elsewhere (the CLI, the API) appears on the open list and goes from it', async () => {
    await page.goto(`${server.origin}/_vtr/console/webhooks`);
    await live(page);
    const hook = await viewAndWebhook();
    await page.locator(`#hook-${hook}`).waitFor();
    await api('DELETE', `/webhooks/${hook}`);
    await page.locator(`#hook-${hook}`).waitFor({ state: 'detached' });
    await poll(() => page.locator('#webhook-lists').innerText()).toContain('No webhooks yet');
  });
});

// The console's mail outbox in a real browser (headless Chromium through playwright-core) against
// `vtr serve`: each mail links to its webhook and event; under --smtp, a mail whose send is under way shows "waiting to be sent", and turns into
// "sent" when the SMTP server takes it, without a reload (notification.updated on the event stream).
import { afterEach, describe, expect, it } from 'vitest';
import { startServer } from '../helpers/vtr-process.js';
import { startReceiver, waitUntil } from '../helpers/receiver.js';
import { newSessionAt, wireWebhook } from '../helpers/admin.js';
import { startSmtp } from '../helpers/smtp.js';
import { BROWSER_TESTS_RUN, controlNames, launchChromium } from '../helpers/browser.js';

const suite = BROWSER_TESTS_RUN ? describe : describe.skip;
const cleanup: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

suite('mail outbox in the console (browser)', () => {
  /** The outbox, live, of a server whose webhooks fail fast at a receiver that always answers 500. */
  async function liveOutbox(serverArgs: string[] = []) {
    const rx = await startReceiver({ answer: () => 500 });
    cleanup.push(() => rx.close());
    const server = await startServer(['--memory', ...serverArgs, '--retry-schedule', '10ms,10ms,10ms,10ms,10ms']);
    cleanup.push(() => server.stop('SIGKILL'));
    const browser = await launchChromium();
    cleanup.push(() => browser.close());
    const page = await browser.newPage();
    page.setDefaultTimeout(30_000);
    await page.goto(`${server.origin}/_vtr/console/outbox`);
    await page.locator('#live.on').waitFor(); // the event stream is connected
    return { rx, server, page };
  }

  it('outbox: a mail waiting for its SMTP send shows so, then "sent" live once the server takes it', async () => {
    let release!: () => void;
    const smtp = await startSmtp({ hold: new Promise<void>((r) => (release = r)) });
    cleanup.push(smtp.close);
    cleanup.push(() => release()); // a failed test must not leave the send hanging
    const { rx, server, page } = await liveOutbox(['--smtp', smtp.url]);

    // A delivery that fails every retry writes a "webhook event failed" mail; its send waits.
    await wireWebhook(server.origin, rx.url);
    await newSessionAt(server.origin);
    const row = page.locator('#rows tr').first();
    await row.getByText('waiting to be sent').waitFor();
    await waitUntil(() => smtp.mails.length === 1, 20_000); // the mail is with the SMTP server, not acknowledged
    expect(await row.textContent()).toContain('waiting to be sent');

    release();
    await row.getByText(/^sent /).waitFor();
    expect(await row.textContent()).not.toContain('waiting to be sent');
  });

  it('outbox: a mail links to its webhook and to the failed event, whose pages open', async () => {
    const { rx, server, page } = await liveOutbox();
    const hook = await wireWebhook(server.origin, rx.url);
    await newSessionAt(server.origin);
    const row = page.locator('#rows tr').first();
    await row.waitFor();
    await row.getByRole('link', { name: hook.webhook_id }).click();
    await page.getByRole('heading', { level: 1, name: `Webhook ${hook.webhook_id}` }).waitFor();
    await page.goBack();
    const event = page.locator('#rows tr').first().getByRole('link', { name: /^msg_/ });
    const eventId = (await event.textContent())!;
    await event.click();
    await page.getByRole('heading', { level: 1, name: `Webhook event ${eventId}` }).waitFor();
  });
  it('outbox: mails with one subject are told apart by a screen reader: each one\'s disclosure names its event and time', async () => {
    const { rx, server, page } = await liveOutbox();
    await wireWebhook(server.origin, rx.url);
    await newSessionAt(server.origin);
    await newSessionAt(server.origin);
    await expect.poll(() => page.locator('#rows tr').count(), { timeout: 30_000, interval: 100 }).toBe(2);
    const mails = (await controlNames(page)).filter((n) => n.startsWith('DisclosureTriangle: '));
    expect(mails).toHaveLength(2);
    expect(mails[0]).not.toBe(mails[1]);
    for (const m of mails) expect(m).toMatch(/^DisclosureTriangle: \[vtr\] Webhook event failed: .+ \(msg_\w+, \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\)$/);
  });
});

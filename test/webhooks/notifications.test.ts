// Notifications reach the outbox always, and an SMTP server with --smtp (a local smtp-server here).
import { afterEach, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/emulator.js';
import { startReceiver, waitUntil, type Receiver } from '../helpers/receiver.js';
import { startSmtp } from '../helpers/smtp.js';

describe('notifications over SMTP', () => {
  let h: Harness | undefined;
  let rx: Receiver | undefined;
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    await rx?.close();
    await h?.close();
    for (const c of closers.splice(0)) await c();
  });

  async function failOneEvent(smtpUrl: string) {
    rx = await startReceiver({ answer: () => 500 });
    h = harness({ clock: 'manual', retrySchedule: [5, 5, 5, 5, 5], smtpUrl });
    const hook = (await h.admin('POST', `/sites/${h.site.site_id}/webhooks`, { url: rx.url })).body;
    await h.admin('POST', `/sites/${h.site.site_id}/views`, { name: 'All', filter: 'page_views >= 1', trigger_webhooks: true });
    await h.createSession();
    await waitUntil(async () => (await h!.admin('GET', '/notifications')).body.length === 1);
    return hook;
  }

  it('notifications: a failed event is mailed to the site owner over SMTP', async () => {
    const smtp = await startSmtp();
    closers.push(smtp.close);
    const hook = await failOneEvent(smtp.url);
    await waitUntil(() => smtp.mails.length === 1);
    expect(smtp.mails[0].to).toEqual(['owner@example.com']);
    expect(smtp.mails[0].raw).toMatch(/Subject: \[vtr\] Webhook event failed/);
    expect(smtp.mails[0].raw).toContain(hook.webhook_id);
    const [n] = (await h!.admin('GET', '/notifications')).body;
    await waitUntil(async () => (await h!.admin('GET', '/notifications')).body[0].sent_at !== null);
    expect(n.kind).toBe('webhook_event_failed');
  });

  it('notifications: works with a mail catcher offering STARTTLS with a self-signed certificate', async () => {
    const smtp = await startSmtp({ starttls: true });
    closers.push(smtp.close);
    const hook = await failOneEvent(smtp.url);
    await waitUntil(() => smtp.mails.length === 1);
    // The mail is the failed event's, and it came over the upgraded (TLS) connection.
    expect(smtp.mails[0].secure).toBe(true);
    expect(smtp.mails[0].to).toEqual(['owner@example.com']);
    expect(smtp.mails[0].raw).toMatch(/Subject: \[vtr\] Webhook event failed/);
    expect(smtp.mails[0].raw).toContain(hook.webhook_id);
  });

  it('notifications: an SMTP server that is down is recorded on the notification, never a crash', async () => {
    const smtp = await startSmtp();
    await smtp.close(); // its port is now closed
    await failOneEvent(smtp.url);
    const n = await waitUntil(async () => {
      const [first] = (await h!.admin('GET', '/notifications')).body;
      return first.send_error ? first : null;
    });
    expect(n).toMatchObject({ kind: 'webhook_event_failed', sent_at: null, send_error: expect.any(String) });
    expect((await h!.request('/_vtr/health')).status).toBe(200);
  });
  it('notifications: a webhook URL with credentials is written with its password masked', async () => {
    rx = await startReceiver({ answer: () => 500 });
    h = harness({ clock: 'manual', retrySchedule: [5, 5, 5, 5, 5] });
    const url = rx.url.replace('http://', 'http://hooks:s3cr%2Ft@');
    const hook = (await h.admin('POST', `/sites/${h.site.site_id}/webhooks`, { url })).body;
    await h.admin('POST', `/sites/${h.site.site_id}/views`, { name: 'All', filter: 'page_views >= 1', trigger_webhooks: true });
    await h.createSession();
    await waitUntil(async () => (await h!.admin('GET', '/notifications')).body.length === 1);
    const [n] = (await h.admin('GET', '/notifications')).body;
    expect(n.webhook_id).toBe(hook.webhook_id);
    expect(n.body).toContain(rx.url.replace('http://', 'http://hooks:***@'));
    expect(JSON.stringify(n)).not.toContain('s3cr');
  });
});

// Notification mail survives a crash of `vtr serve --smtp` (the built binary, kill -9, real SMTP
// servers): killed after the notification committed and before its send finished, the next start
// with --smtp sends it.
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { startServer, tempDir, type ServerProcess } from '../helpers/vtr-process.js';
import { startReceiver, waitUntil } from '../helpers/receiver.js';
import { adminApi, newSessionAt, wireWebhook } from '../helpers/admin.js';
import { startSilentSmtp, startSmtp } from '../helpers/smtp.js';

const cleanup: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

async function serve(args: string[]): Promise<ServerProcess> {
  const s = await startServer(args);
  cleanup.push(() => s.stop('SIGKILL'));
  return s;
}

describe('notification mail across a crash (built binary)', () => {
  it('serve --smtp: a notification whose send a kill -9 cut short is mailed by the next start with --smtp, once', async () => {
    const db = join(tempDir('vtr-mail-crash-'), 'vtr.db');
    const rx = await startReceiver({ answer: () => 500 });
    cleanup.push(() => rx.close());
    // Takes the connection and never answers: the send is under way when the server is killed.
    const silent = await startSilentSmtp();
    cleanup.push(silent.close);
    const first = await serve(['--db', db, '--smtp', silent.url, '--retry-schedule', '10ms,10ms,10ms,10ms,10ms']);
    await wireWebhook(first.origin, rx.url);
    await newSessionAt(first.origin);
    const [n] = await waitUntil(async () => {
      const list = await adminApi<any[]>(first.origin, 'GET', '/notifications');
      return list.length === 1 ? list : null;
    }, 20_000);
    await waitUntil(() => silent.connections() === 1, 20_000);
    expect(n).toMatchObject({ kind: 'webhook_event_failed', sent_at: null, send_error: null });
    await first.stop('SIGKILL');

    const smtp = await startSmtp();
    cleanup.push(smtp.close);
    const second = await serve(['--db', db, '--smtp', smtp.url]);
    await waitUntil(() => smtp.mails.length === 1, 20_000);
    expect(smtp.mails[0].to).toEqual(['owner@example.com']);
    expect(smtp.mails[0].raw).toMatch(/Subject: \[vtr\] Webhook event failed/);
    const after = await waitUntil(async () => {
      const [m] = await adminApi<any[]>(second.origin, 'GET', '/notifications');
      return m.sent_at ? m : null;
    }, 20_000);
    expect(after).toMatchObject({ notification_id: n.notification_id, send_error: null });
    // Stopped and started again: nothing is sent twice.
    expect(await second.stop('SIGTERM')).toBe(0);
    const third = await serve(['--db', db, '--smtp', smtp.url]);
    await new Promise((r) => setTimeout(r, 500));
    expect(smtp.mails).toHaveLength(1);
    await third.stop('SIGTERM');
  });
});

// The mail outbox is sent at least once: a notification written with --smtp waits for its send, and
// one a crash left waiting goes out from the next server with SMTP on the file (real SMTP servers).
import { afterEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { createClock } from '../../src/domain/clock.js';
import { createEventBus } from '../../src/events/bus.js';
import { createStore } from '../../src/store/index.js';
import { createSiteService } from '../../src/sites/service.js';
import { createWebhookSystem } from '../../src/webhooks/index.js';
import { tempDir } from '../helpers/vtr-process.js';
import { waitUntil } from '../helpers/receiver.js';
import { startSilentSmtp, startSmtp } from '../helpers/smtp.js';

/** The pid of a process that has already exited (as a crashed server's is). */
const exitedPid = () => spawnSync(process.execPath, ['-e', '0']).pid!;
const WAIT = 20_000;

const cleanup: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

/** A server on `file`: its store and webhook system, started (as `vtr serve` once listening). */
function server(file: string, smtpUrl: string | null, bus = createEventBus()) {
  const store = createStore({ path: file });
  const clock = createClock('system');
  const system = createWebhookSystem({ store, clock, bus, smtpUrl, send: async () => ({ ok: true, status_code: 200, error: null }), log: () => {} });
  system.dispatcher.start();
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await system.close();
    store.close();
  };
  cleanup.push(close);
  const site = createSiteService({ store, clock }).bootstrap()?.site ?? store.sites.list()[0];
  /** A notification written in a transaction and dispatched after commit, as a failed event's is. */
  const notify = () => {
    const n = store.tx(() => system.notifier.write({ kind: 'webhook_disabled', site, webhook_id: null, webhook_event_id: null, subject: '[vtr] Webhook disabled', body: 'B' }));
    system.notifier.dispatch(n);
    return n;
  };
  const row = (id: string) => store.db.prepare('SELECT sent_at, send_error, send_pending FROM notifications WHERE notification_id = ?').get(id);
  const claims = () => store.db.prepare('SELECT count(*) AS n FROM notification_claims').get();
  return { store, system, notify, row, claims, close };
}

describe('notification mail: at least once', () => {
  it('notifications: a mail a crash left unsent goes out when a server with --smtp starts on the file; the dead one\'s late result does not overwrite it', async () => {
    const file = join(tempDir('vtr-outbox-'), 'vtr.db');
    const silent = await startSilentSmtp();
    cleanup.push(silent.close);
    const a = server(file, silent.url);
    const n = a.notify();
    await waitUntil(() => silent.connections() === 1, WAIT);
    // Written and committed, its send under way: it waits for it.
    expect(a.row(n.notification_id)).toEqual({ sent_at: null, send_error: null, send_pending: 1 });
    // The server is killed: its claim names a pid that has exited.
    a.store.db.prepare('UPDATE notification_claims SET owner = ?, pid = ?').run('crashed', exitedPid());
    const smtp = await startSmtp();
    cleanup.push(smtp.close);
    const b = server(file, smtp.url);
    await waitUntil(() => smtp.mails.length === 1, WAIT);
    expect(smtp.mails[0].to).toEqual(['owner@example.com']);
    expect(smtp.mails[0].raw).toContain('Subject: [vtr] Webhook disabled');
    await waitUntil(() => (b.row(n.notification_id) as { send_pending: number }).send_pending === 0, WAIT);
    expect(b.row(n.notification_id)).toMatchObject({ sent_at: expect.any(String), send_error: null });
    expect(b.claims()).toEqual({ n: 0 });
    // The first server's send fails now: the result already there stays.
    await silent.close();
    await a.close();
    expect(b.row(n.notification_id)).toMatchObject({ sent_at: expect.any(String), send_error: null, send_pending: 0 });
    expect(smtp.mails).toHaveLength(1);
  });

  it('notifications: a mail another live server is sending is not sent twice; once that server is gone, it is', async () => {
    const file = join(tempDir('vtr-outbox-'), 'vtr.db');
    const smtp = await startSmtp();
    cleanup.push(smtp.close);
    const a = server(file, null);
    const b = server(file, smtp.url);
    // Written by a server with SMTP that holds it (a live process: the one that started this test).
    const claimed = b.notify();
    await waitUntil(() => smtp.mails.length === 1, WAIT);
    const held = a.store.tx(() => {
      const id = claimed.notification_id.replace(/.$/, (c) => (c === 'x' ? 'y' : 'x'));
      a.store.db.prepare("INSERT INTO notifications SELECT ?, kind, site_id, webhook_id, webhook_event_id, \"to\", subject, body, created_at, NULL, NULL, seq, 1 FROM notifications WHERE notification_id = ?").run(id, claimed.notification_id);
      return id;
    });
    const claim = (pid: number) =>
      a.store.db.prepare('INSERT OR REPLACE INTO notification_claims VALUES (?, ?, ?, ?, ?)').run(held, `other:${pid}`, hostname(), pid, Date.UTC(2030, 0, 1));
    claim(process.ppid);
    b.system.notifier.resume();
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.mails).toHaveLength(1);
    claim(exitedPid());
    b.system.notifier.resume();
    await waitUntil(() => smtp.mails.length === 2, WAIT);
    await waitUntil(() => (b.row(held) as { send_pending: number }).send_pending === 0, WAIT);
  });

  it('notifications: one written without --smtp is never mailed by a later server with --smtp', async () => {
    const file = join(tempDir('vtr-outbox-'), 'vtr.db');
    const a = server(file, null);
    const n = a.notify();
    expect(a.row(n.notification_id)).toEqual({ sent_at: null, send_error: null, send_pending: 0 });
    await a.close();
    const smtp = await startSmtp();
    cleanup.push(smtp.close);
    const b = server(file, smtp.url);
    b.system.notifier.resume();
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.mails).toHaveLength(0);
    expect(b.row(n.notification_id)).toEqual({ sent_at: null, send_error: null, send_pending: 0 });
  });
});

describe('notification mail: the send\'s result', () => {
  it('notifications: a finished send is published as notification.updated, the notification as the API shows it', async () => {
    const smtp = await startSmtp();
    cleanup.push(smtp.close);
    const bus = createEventBus();
    const seen: Array<{ type: string; data: Record<string, unknown> }> = [];
    bus.subscribe((e) => void seen.push(e), (t) => t.startsWith('notification.'));
    const a = server(join(tempDir('vtr-outbox-'), 'vtr.db'), smtp.url, bus);
    const n = a.notify();
    await waitUntil(() => seen.some((e) => e.type === 'notification.updated'), WAIT);
    const updated = seen.find((e) => e.type === 'notification.updated')!.data;
    expect(updated).toMatchObject({ notification_id: n.notification_id, sent_at: expect.any(String), send_error: null });
    expect(Object.keys(updated).sort()).toEqual(Object.keys(n).sort());
    expect(smtp.mails).toHaveLength(1);
  });
});

describe('notification mail: state export and import', () => {
  it('state import: a notification waiting for its send is mailed by the importing server with --smtp; one from an export without send_pending is not', async () => {
    const a = server(join(tempDir('vtr-outbox-'), 'vtr.db'), null);
    const waiting = a.notify();
    const history = a.notify();
    a.store.db.prepare('UPDATE notifications SET send_pending = 1 WHERE notification_id = ?').run(waiting.notification_id);
    const doc = a.store.state.export('2026-11-21T09:00:00.000000');
    expect(doc.tables.notifications.map((r) => r.send_pending)).toEqual(expect.arrayContaining([0, 1]));
    // As a vtr of schema version 6 wrote it: no send_pending; the other row as the waiting one.
    const older = { ...doc, schema_version: 6, tables: { ...doc.tables, notifications: doc.tables.notifications.map(({ send_pending: _gone, ...row }) => row) } };
    const smtp = await startSmtp();
    cleanup.push(smtp.close);
    const b = server(join(tempDir('vtr-outbox-'), 'vtr.db'), smtp.url);
    b.store.state.import(older);
    b.system.notifier.resume();
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.mails).toHaveLength(0);
    expect(b.row(waiting.notification_id)).toEqual({ sent_at: null, send_error: null, send_pending: 0 });
    b.store.state.import(doc);
    b.system.notifier.resume();
    await waitUntil(() => smtp.mails.length === 1, WAIT);
    await waitUntil(() => (b.row(waiting.notification_id) as { send_pending: number }).send_pending === 0, WAIT);
    expect(b.row(waiting.notification_id)).toMatchObject({ sent_at: expect.any(String) });
    expect(b.row(history.notification_id)).toEqual({ sent_at: null, send_error: null, send_pending: 0 });
  });
});

import { afterAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createEmulator } from '../../src/emulator.js';
import { tempDir } from '../helpers/vtr-process.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** What migration 7 added: notification_claims, notifications.send_pending. */
const undoMigration7 = (db: Database.Database) =>
  db.exec('DROP TABLE notification_claims; DROP INDEX notifications_send_pending; ALTER TABLE notifications DROP COLUMN send_pending');

describe('store: migrations', () => {
  it('migration 5: time zones stored under their old tz names read back under the current ones', async () => {
    const dir = tempDir('vtr-migrate-');
    dirs.push(dir);
    const path = join(dir, 'vtr.db');
    const first = createEmulator({ dbPath: path });
    const site = first.bootstrap!.site;
    const ids = ['Asia/Kolkata', 'Europe/Kyiv', 'Europe/Berlin'].map((timezone) =>
      first.deps.sessions.recordPageView(site, { url: 'https://a.test/', ip: '203.0.113.2', timezone }).session.session_id);
    await first.close();
    // As a vtr of schema version 4 left it: the names Intl gave then.
    const old = new Database(path);
    old.prepare('UPDATE sessions SET timezone = ? WHERE session_id = ?').run('Asia/Calcutta', ids[0]);
    old.prepare('UPDATE sessions SET timezone = ? WHERE session_id = ?').run('Europe/Kiev', ids[1]);
    old.exec('ALTER TABLE rules DROP COLUMN seq'); // added by migration 6
    undoMigration7(old);
    old.pragma('user_version = 4');
    old.close();

    const second = createEmulator({ dbPath: path });
    try {
      const zones = ids.map((id) => second.deps.sessions.get(id, site.site_id).timezone);
      expect(zones).toEqual(['Asia/Kolkata', 'Europe/Kyiv', 'Europe/Berlin']);
      const res = await second.app.request(`/_vtr/api/sessions?where=${encodeURIComponent('timezone = "Asia/Kolkata"')}`);
      expect(((await res.json()) as Array<{ session_id: string }>).map((s) => s.session_id)).toEqual([ids[0]]);
    } finally {
      await second.close();
    }
  });

  it('migration 6: rules get their order from their created_at, and a rule created then follows them', async () => {
    const dir = tempDir('vtr-migrate-');
    dirs.push(dir);
    const path = join(dir, 'vtr.db');
    const first = createEmulator({ dbPath: path });
    const site = first.bootstrap!.site.site_id;
    await first.close();
    // As a vtr of schema version 5 left it: no seq; rows written in another order than created_at's.
    const old = new Database(path);
    old.exec('ALTER TABLE rules DROP COLUMN seq');
    undoMigration7(old);
    const insert = old.prepare("INSERT INTO rules VALUES (?, ?, 'custom', ?, 'risk_level = invalid', 'review', NULL, 1, ?)");
    insert.run(site, 'rule_b', 'second', '2026-01-02T00:00:00.000000');
    insert.run(site, 'rule_a', 'first', '2026-01-01T00:00:00.000000');
    insert.run(site, 'rule_c', 'third', '2026-01-03T00:00:00.000000');
    old.pragma('user_version = 5');
    old.close();

    const second = createEmulator({ dbPath: path });
    try {
      second.deps.rules!.create(site, { name: 'fourth', filter: 'risk_level = invalid', action: 'review' });
      const custom = second.deps.rules!.list(site).filter((r) => r.type === 'custom').map((r) => r.name);
      expect(custom).toEqual(['first', 'second', 'third', 'fourth']);
    } finally {
      await second.close();
    }
  });

  it('migration 7: notifications from before wait for no send: a start with SMTP mails none of them', async () => {
    const dir = tempDir('vtr-migrate-');
    dirs.push(dir);
    const path = join(dir, 'vtr.db');
    const first = createEmulator({ dbPath: path });
    const site = first.bootstrap!.site.site_id;
    await first.close();
    // As a vtr of schema version 6 left it: no send_pending, no notification_claims.
    const old = new Database(path);
    undoMigration7(old);
    old.prepare("INSERT INTO notifications VALUES ('ntf_old', 'webhook_disabled', ?, NULL, NULL, 'o@example.com', 'S', 'B', '2026-01-01T00:00:00.000000', NULL, NULL, 1)").run(site);
    old.pragma('user_version = 6');
    old.close();

    const second = createEmulator({ dbPath: path, smtpUrl: 'smtp://127.0.0.1:9' });
    try {
      expect(second.store.db.prepare('SELECT send_pending, sent_at, send_error FROM notifications').all()).toEqual([{ send_pending: 0, sent_at: null, send_error: null }]);
      expect(second.store.notifications.waiting(10)).toEqual([]);
    } finally {
      await second.close();
    }
  });
});

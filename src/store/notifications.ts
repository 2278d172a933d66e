import type { Notification } from '../domain/webhooks.js';
import type { Db } from './db.js';
import { whereOf } from './where.js';

export function createNotificationStore(db: Db) {
  const insert = db.prepare(
    `INSERT INTO notifications (notification_id, kind, site_id, webhook_id, webhook_event_id, "to", subject, body, created_at, sent_at, send_error, seq)
     VALUES (@notification_id, @kind, @site_id, @webhook_id, @webhook_event_id, @to, @subject, @body, @created_at, @sent_at, @send_error, @seq)`,
  );
  const cols = 'notification_id, kind, site_id, webhook_id, webhook_event_id, "to", subject, body, created_at, sent_at, send_error';
  const byId = db.prepare<[string], Notification>(`SELECT ${cols} FROM notifications WHERE notification_id = ?`);
  const seqOf = db.prepare<[string], { seq: number }>('SELECT seq FROM notifications WHERE notification_id = ?');
  const sent = db.prepare('UPDATE notifications SET sent_at = ?, send_error = ? WHERE notification_id = ?');

  return {
    insert: (n: Notification, seq: number) => void insert.run({ ...n, seq }),
    get: (id: string): Notification | null => byId.get(id) ?? null,
    seqOf: (id: string): number | null => seqOf.get(id)?.seq ?? null,
    /** Newest first; `beforeSeq` pages on. */
    list(q: { siteId?: string; limit?: number; beforeSeq?: number } = {}): Notification[] {
      const { where, params } = whereOf([q.siteId && ['site_id = ?', q.siteId], q.beforeSeq != null && ['seq < ?', q.beforeSeq]]);
      const sql = `SELECT ${cols} FROM notifications ${where} ORDER BY seq DESC LIMIT ?`;
      return db.prepare<Array<string | number>, Notification>(sql).all(...params, q.limit ?? 100);
    },
    markSent: (id: string, at: string | null, error: string | null) => void sent.run(at, error, id),
  };
}
export type NotificationStore = ReturnType<typeof createNotificationStore>;

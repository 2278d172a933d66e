import type { Notification } from '../domain/webhooks.js';
import type { Db } from './db.js';

export function createNotificationStore(db: Db) {
  const insert = db.prepare(
    `INSERT INTO notifications (notification_id, kind, site_id, webhook_id, webhook_event_id, "to", subject, body, created_at, sent_at, send_error, seq)
     VALUES (@notification_id, @kind, @site_id, @webhook_id, @webhook_event_id, @to, @subject, @body, @created_at, @sent_at, @send_error, @seq)`,
  );
  const cols = 'notification_id, kind, site_id, webhook_id, webhook_event_id, "to", subject, body, created_at, sent_at, send_error';
  const byId = db.prepare<[string], Notification>(`SELECT ${cols} FROM notifications WHERE notification_id = ?`);
  const all = db.prepare<[number], Notification>(`SELECT ${cols} FROM notifications ORDER BY seq DESC LIMIT ?`);
  const bySite = db.prepare<[string, number], Notification>(`SELECT ${cols} FROM notifications WHERE site_id = ? ORDER BY seq DESC LIMIT ?`);
  const sent = db.prepare('UPDATE notifications SET sent_at = ?, send_error = ? WHERE notification_id = ?');

  return {
    insert: (n: Notification, seq: number) => void insert.run({ ...n, seq }),
    get: (id: string): Notification | null => byId.get(id) ?? null,
    /** Newest first. */
    list: (q: { siteId?: string; limit?: number } = {}) => (q.siteId ? bySite.all(q.siteId, q.limit ?? 100) : all.all(q.limit ?? 100)),
    markSent: (id: string, at: string | null, error: string | null) => void sent.run(at, error, id),
  };
}
export type NotificationStore = ReturnType<typeof createNotificationStore>;

import type { Notification } from '../domain/webhooks.js';
import type { Db } from './db.js';
import { whereOf } from './where.js';
import { NEWEST_FIRST, olderThan, type PageCursor } from './paging.js';

export function createNotificationStore(db: Db) {
  const insert = db.prepare(
    `INSERT INTO notifications (notification_id, kind, site_id, webhook_id, webhook_event_id, "to", subject, body, created_at, sent_at, send_error, seq)
     VALUES (@notification_id, @kind, @site_id, @webhook_id, @webhook_event_id, @to, @subject, @body, @created_at, @sent_at, @send_error, @seq)`,
  );
  const cols = 'notification_id, kind, site_id, webhook_id, webhook_event_id, "to", subject, body, created_at, sent_at, send_error';
  const byId = db.prepare<[string], Notification>(`SELECT ${cols} FROM notifications WHERE notification_id = ?`);
  const cursorOf = db.prepare<[string], PageCursor>('SELECT seq, rowid FROM notifications WHERE notification_id = ?');
  const sent = db.prepare('UPDATE notifications SET sent_at = ?, send_error = ? WHERE notification_id = ?');

  return {
    insert: (n: Notification, seq: number) => void insert.run({ ...n, seq }),
    get: (id: string): Notification | null => byId.get(id) ?? null,
    /** Where a page ending at this notification ends (for `list({ before })`), or null for an unknown id. */
    cursor: (id: string): PageCursor | null => cursorOf.get(id) ?? null,
    /** Newest first; `before` pages on. */
    list(q: { siteId?: string; limit?: number; before?: PageCursor } = {}): Notification[] {
      const { where, params } = whereOf([q.siteId && ['site_id = ?', q.siteId], olderThan(q.before)]);
      const sql = `SELECT ${cols} FROM notifications ${where} ${NEWEST_FIRST} LIMIT ?`;
      return db.prepare<Array<string | number>, Notification>(sql).all(...params, q.limit ?? 100);
    },
    markSent: (id: string, at: string | null, error: string | null) => void sent.run(at, error, id),
  };
}
export type NotificationStore = ReturnType<typeof createNotificationStore>;

import type { Notification } from '../domain/webhooks.js';
import type { Db } from './db.js';
import { whereOf } from './where.js';
import { NEWEST_FIRST, olderThan, type PageCursor } from './paging.js';

export function createNotificationStore(db: Db) {
  const insert = db.prepare(
    `INSERT INTO notifications (notification_id, kind, site_id, webhook_id, webhook_event_id, "to", subject, body, created_at, sent_at, send_error, seq, send_pending)
     VALUES (@notification_id, @kind, @site_id, @webhook_id, @webhook_event_id, @to, @subject, @body, @created_at, @sent_at, @send_error, @seq, @send_pending)`,
  );
  const cols = 'notification_id, kind, site_id, webhook_id, webhook_event_id, "to", subject, body, created_at, sent_at, send_error';
  const byId = db.prepare<[string], Notification>(`SELECT ${cols} FROM notifications WHERE notification_id = ?`);
  const cursorOf = db.prepare<[string], PageCursor>('SELECT seq, rowid FROM notifications WHERE notification_id = ?');
  // The first result counts: a server whose claim lapsed (too slow) does not overwrite the one that took over.
  const sent = db.prepare('UPDATE notifications SET sent_at = ?, send_error = ?, send_pending = 0 WHERE notification_id = ? AND send_pending = 1');
  const waiting = db.prepare<[number], { notification_id: string }>('SELECT notification_id FROM notifications WHERE send_pending = 1 ORDER BY seq, rowid LIMIT ?');
  const isWaiting = db.prepare<[string], { n: number }>('SELECT 1 AS n FROM notifications WHERE notification_id = ? AND send_pending = 1');
  const waitingAmong = db.prepare<[string], { notification_id: string }>(
    'SELECT notification_id FROM notifications WHERE send_pending = 1 AND notification_id IN (SELECT value FROM json_each(?))',
  );

  return {
    /** `sendPending`: it is to be mailed (SMTP is configured), and waits for its send until markSent. */
    insert: (n: Notification, seq: number, sendPending = false) => void insert.run({ ...n, seq, send_pending: sendPending ? 1 : 0 }),
    get: (id: string): Notification | null => byId.get(id) ?? null,
    /** Where a page ending at this notification ends (for `list({ before })`), or null for an unknown id. */
    cursor: (id: string): PageCursor | null => cursorOf.get(id) ?? null,
    /** Newest first; `before` pages on. */
    list(q: { siteId?: string; limit?: number; before?: PageCursor } = {}): Notification[] {
      const { where, params } = whereOf([q.siteId && ['site_id = ?', q.siteId], olderThan(q.before)]);
      const sql = `SELECT ${cols} FROM notifications ${where} ${NEWEST_FIRST} LIMIT ?`;
      return db.prepare<Array<string | number>, Notification>(sql).all(...params, q.limit ?? 100);
    },
    /** The send's result (`at` when it was sent, else `error`) for a notification waiting for it. */
    markSent: (id: string, at: string | null, error: string | null) => void sent.run(at, error, id),
    /** Ids of notifications waiting for their send, oldest first. */
    waiting: (limit: number): string[] => waiting.all(limit).map((r) => r.notification_id),
    isWaiting: (id: string): boolean => isWaiting.get(id) !== undefined,
    /** Of these ids, the ones waiting for their send (one query for a page of them). */
    waitingAmong: (ids: string[]): Set<string> => new Set(waitingAmong.all(JSON.stringify(ids)).map((r) => r.notification_id)),
  };
}
export type NotificationStore = ReturnType<typeof createNotificationStore>;

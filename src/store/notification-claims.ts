import type { Db } from './db.js';
import type { ClaimRecord, ClaimTable } from './webhook-claims.js';

/** Which process is sending a notification over SMTP now (several `vtr serve --smtp` on one file). */
export function createNotificationClaimStore(db: Db): ClaimTable {
  const get = db.prepare<[string], ClaimRecord>('SELECT owner, host, pid, expires_ms FROM notification_claims WHERE notification_id = ?');
  // Nothing is written for a notification that no longer exists (an import replaced the outbox).
  const put = db.prepare(
    `INSERT OR REPLACE INTO notification_claims (notification_id, owner, host, pid, expires_ms)
     SELECT @id, @owner, @host, @pid, @expires_ms WHERE EXISTS (SELECT 1 FROM notifications WHERE notification_id = @id)`,
  );
  const release = db.prepare('DELETE FROM notification_claims WHERE notification_id = ? AND owner = ?');
  const releaseAll = db.prepare('DELETE FROM notification_claims WHERE owner = ?');
  return {
    get: (id: string): ClaimRecord | null => get.get(id) ?? null,
    put: (id: string, c: ClaimRecord): boolean => put.run({ id, owner: c.owner, host: c.host, pid: c.pid, expires_ms: c.expires_ms }).changes > 0,
    release: (id: string, owner: string) => void release.run(id, owner),
    releaseAll: (owner: string) => void releaseAll.run(owner),
  };
}

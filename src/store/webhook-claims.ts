import type { Db } from './db.js';

/** Who holds a claim: a dispatcher, in a process on a host. */
export interface ClaimHolder {
  owner: string;
  host: string;
  pid: number;
}

export interface ClaimRecord extends ClaimHolder {
  webhook_event_id: string;
  /** Real epoch ms after which anyone may take the claim (its holder outlived its attempt's timeout). */
  expires_ms: number;
}

export function createWebhookClaimStore(db: Db) {
  const get = db.prepare<[string], ClaimRecord>('SELECT * FROM webhook_claims WHERE webhook_event_id = ?');
  // Nothing is written for an event that no longer exists (deleted by another process meanwhile).
  const put = db.prepare(
    `INSERT OR REPLACE INTO webhook_claims (webhook_event_id, owner, host, pid, expires_ms)
     SELECT @webhook_event_id, @owner, @host, @pid, @expires_ms WHERE EXISTS (SELECT 1 FROM webhook_events WHERE webhook_event_id = @webhook_event_id)`,
  );
  const release = db.prepare('DELETE FROM webhook_claims WHERE webhook_event_id = ? AND owner = ?');
  const releaseAll = db.prepare('DELETE FROM webhook_claims WHERE owner = ?');
  return {
    get: (eventId: string): ClaimRecord | null => get.get(eventId) ?? null,
    /** Takes (or takes over) the claim; false when the event is gone. */
    put: (c: ClaimRecord): boolean => put.run(c).changes > 0,
    release: (eventId: string, owner: string) => void release.run(eventId, owner),
    releaseAll: (owner: string) => void releaseAll.run(owner),
  };
}
export type WebhookClaimStore = ReturnType<typeof createWebhookClaimStore>;

import type { Db } from './db.js';

/** Who holds a claim: a dispatcher or a notifier, in a process on a host. */
export interface ClaimHolder {
  owner: string;
  host: string;
  pid: number;
}

export interface ClaimRecord extends ClaimHolder {
  /** Real epoch ms after which anyone may take the claim (its holder outlived its attempt's timeout). */
  expires_ms: number;
}

/** A table of claims (webhook_claims, notification_claims), keyed by what is claimed. */
export interface ClaimTable {
  get(id: string): ClaimRecord | null;
  /** Takes (or takes over) the claim; false when what it claims is gone. */
  put(id: string, c: ClaimRecord): boolean;
  release(id: string, owner: string): void;
  releaseAll(owner: string): void;
}

export function createWebhookClaimStore(db: Db): ClaimTable {
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
    put: (eventId: string, c: ClaimRecord): boolean => put.run({ ...c, webhook_event_id: eventId }).changes > 0,
    release: (eventId: string, owner: string) => void release.run(eventId, owner),
    releaseAll: (owner: string) => void releaseAll.run(owner),
  };
}

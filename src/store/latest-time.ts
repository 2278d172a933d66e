// The latest time the emulator wrote into any record: a frozen clock restarted on the file hands out
// its readings after it (within the frozen millisecond they are a microsecond apart, counted in
// memory), so nothing is timestamped before what was written earlier.
import type { Db } from './db.js';

// Every column the clock stamps (sessions.updated_at is never before created_at).
const STAMPED: ReadonlyArray<readonly [string, string]> = [
  ['sites', 'created_at'], ['access_tokens', 'created_at'], ['access_tokens', 'revoked_at'],
  ['sessions', 'updated_at'], ['probes', 'created_at'], ['checks', 'created_at'], ['rules', 'created_at'],
  ['saved_views', 'created_at'], ['view_matches', 'matched_at'], ['webhooks', 'created_at'],
  ['webhook_events', 'created_at'], ['webhook_attempts', 'at'], ['notifications', 'created_at'],
  ['notifications', 'sent_at'], ['request_log', 'created_at'],
];

export function createLatestTime(db: Db): () => string | null {
  // Prepared on first use: only a frozen clock starting on a file asks.
  let query: ReturnType<typeof prepare> | null = null;
  const prepare = () => db.prepare<[], { latest: string | null }>(
    `SELECT max(t) AS latest FROM (${STAMPED.map(([table, col]) => `SELECT max(${col}) AS t FROM ${table}`).join(' UNION ALL ')})`,
  );
  /** The wire-format timestamp (UTC, microseconds), or null for an empty database. */
  return () => (query ??= prepare()).get()?.latest ?? null;
}

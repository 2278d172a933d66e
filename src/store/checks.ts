import { json, type Db } from './db.js';
import { whereOf } from './where.js';
import { NEWEST_FIRST, olderThan, type PageCursor } from './paging.js';

export interface CheckRecord {
  check_id: string;
  site_id: string;
  session_id: string | null;
  risk_level: string;
  created_at: string;
  result: Record<string, unknown>;
  seq: number;
  /** The probe's device, for the device rules. */
  fingerprint?: string | null;
  /** The normalised email checked, for `emails_per_device`. */
  email?: string | null;
}

type Row = Omit<CheckRecord, 'result'> & { result: string };
const toRecord = (r: Row): CheckRecord => ({ ...r, result: json.parse(r.result, {}) });

export function createCheckStore(db: Db) {
  const insert = db.prepare('INSERT INTO checks (check_id, site_id, session_id, risk_level, created_at, result, seq, fingerprint, email) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
  // All three read the partial index checks_device (site_id, fingerprint, created_at, email), never
  // the table. The count of checks since a time is a range of it, stopped at `atMost` (a rule only
  // asks whether its threshold is passed); the emails are read from the device's entries (a device
  // has few checks; one sent thousands by a load test makes emails_per_device read them all).
  const deviceChecks = db.prepare<[string, string, string, number], { n: number }>(
    'SELECT count(*) AS n FROM (SELECT 1 FROM checks WHERE site_id = ? AND fingerprint = ? AND created_at >= ? LIMIT ?)',
  );
  const deviceEmails = db.prepare<[string, string, number], { n: number }>(
    'SELECT count(*) AS n FROM (SELECT DISTINCT email FROM checks WHERE site_id = ? AND fingerprint = ? AND email IS NOT NULL LIMIT ?)',
  );
  const deviceHasEmail = db.prepare<[string, string, string], { one: number }>('SELECT 1 AS one FROM checks WHERE site_id = ? AND fingerprint = ? AND email = ? LIMIT 1');
  const get = db.prepare<[string], Row>('SELECT * FROM checks WHERE check_id = ?');
  const forSession = db.prepare<[string], Row>('SELECT * FROM checks WHERE session_id = ? ORDER BY seq, rowid');
  const cursorOf = db.prepare<[string], PageCursor>('SELECT seq, rowid FROM checks WHERE check_id = ?');
  return {
    insert: (c: CheckRecord) =>
      void insert.run(c.check_id, c.site_id, c.session_id, c.risk_level, c.created_at, json.stringify(c.result), c.seq, c.fingerprint ?? null, c.email ?? null),
    /** Checks of the site with this device since `since` (a stored timestamp), counted up to `atMost`. */
    deviceChecks: (siteId: string, fingerprint: string, since: string, atMost: number): number => deviceChecks.get(siteId, fingerprint, since, atMost)!.n,
    /** Distinct normalised emails checked with this device on the site, counted up to `atMost`. */
    deviceEmails: (siteId: string, fingerprint: string, atMost: number): number => deviceEmails.get(siteId, fingerprint, atMost)!.n,
    deviceHasEmail: (siteId: string, fingerprint: string, email: string): boolean => deviceHasEmail.get(siteId, fingerprint, email) !== undefined,
    get: (id: string) => {
      const r = get.get(id);
      return r ? toRecord(r) : null;
    },
    /** Oldest first (the reverse of list's order). */
    forSession: (sessionId: string) => forSession.all(sessionId).map(toRecord),
    /** Where a page ending at this check ends (for `list({ before })`), or null for an unknown id. */
    cursor: (id: string): PageCursor | null => cursorOf.get(id) ?? null,
    /** Newest first; `before` pages on. */
    list(q: { siteId?: string; sessionId?: string; limit?: number; before?: PageCursor }): CheckRecord[] {
      const { where, params } = whereOf([q.siteId && ['site_id = ?', q.siteId], q.sessionId && ['session_id = ?', q.sessionId], olderThan(q.before)]);
      const sql = `SELECT * FROM checks ${where} ${NEWEST_FIRST} LIMIT ?`;
      return db.prepare<unknown[], Row>(sql).all(...params, Math.max(1, Math.min(q.limit ?? 50, 10_000))).map(toRecord);
    },
  };
}
export type CheckStore = ReturnType<typeof createCheckStore>;

import { SESSION_FIELDS, type Session } from '../domain/session.js';
import { json, type Db } from './db.js';

/** A stored session: the public Session plus the bookkeeping the derivations need. */
export interface SessionRecord {
  session: Session;
  first_seen_us: number;
  last_seen_us: number;
  click_id: string | null;
  /** Risks contributed by visitor checks with this session's probe. */
  check_risks: string[];
  seq: number;
}

const ARRAY_FIELDS = new Set(['risks', 'actions', 'custom_events']);
const INTERNAL = ['first_seen_us', 'last_seen_us', 'click_id', 'check_risks', 'seq'] as const;
const COLUMNS = [...SESSION_FIELDS, ...INTERNAL];

type Row = Record<string, unknown>;

export function rowToSession(row: Row): Session {
  const out: Record<string, unknown> = {};
  for (const f of SESSION_FIELDS) {
    const v = row[f];
    if (ARRAY_FIELDS.has(f)) out[f] = json.parse(v as string, []);
    else if (f === 'returned') out[f] = v == null ? null : v === 1;
    else out[f] = v ?? null;
  }
  return out as unknown as Session;
}

function toRecord(row: Row): SessionRecord {
  return {
    session: rowToSession(row),
    first_seen_us: row.first_seen_us as number,
    last_seen_us: row.last_seen_us as number,
    click_id: (row.click_id as string) ?? null,
    check_risks: json.parse(row.check_risks as string, []),
    seq: row.seq as number,
  };
}

function toRow(rec: SessionRecord): Row {
  const row: Row = {};
  for (const f of SESSION_FIELDS) {
    const v = rec.session[f];
    if (ARRAY_FIELDS.has(f)) row[f] = json.stringify(v ?? []);
    else if (f === 'returned') row[f] = v == null ? null : v ? 1 : 0;
    else row[f] = v;
  }
  row.first_seen_us = rec.first_seen_us;
  row.last_seen_us = rec.last_seen_us;
  row.click_id = rec.click_id;
  row.check_risks = json.stringify(rec.check_risks);
  row.seq = rec.seq;
  return row;
}

export interface SessionQuery {
  siteId?: string;
  /** A compiled filter (see session-filter-sql.ts). */
  where?: { where: string; params: unknown[] };
  limit?: number;
  /** Paging: only sessions older than this seq. */
  beforeSeq?: number;
}

export function createSessionStore(db: Db) {
  const insert = db.prepare(`INSERT INTO sessions (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => `@${c}`).join(', ')})`);
  const update = db.prepare(
    `UPDATE sessions SET ${COLUMNS.filter((c) => c !== 'session_id').map((c) => `${c} = @${c}`).join(', ')} WHERE session_id = @session_id`,
  );
  const byId = db.prepare<[string], Row>('SELECT * FROM sessions WHERE session_id = ?');
  const latestForFp = db.prepare<[string, string], Row>(
    'SELECT * FROM sessions WHERE site_id = ? AND fingerprint = ? ORDER BY last_seen_us DESC LIMIT 1',
  );
  const earlierForFp = db.prepare<[string, string, number], { one: number }>(
    'SELECT 1 AS one FROM sessions WHERE site_id = ? AND fingerprint = ? AND first_seen_us < ? LIMIT 1',
  );
  const countAll = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM sessions');

  return {
    get: (id: string): SessionRecord | null => {
      const r = byId.get(id);
      return r ? toRecord(r) : null;
    },
    latestForVisitor: (siteId: string, fingerprint: string): SessionRecord | null => {
      const r = latestForFp.get(siteId, fingerprint);
      return r ? toRecord(r) : null;
    },
    hasEarlierVisit: (siteId: string, fingerprint: string, beforeUs: number) => !!earlierForFp.get(siteId, fingerprint, beforeUs),
    insert: (rec: SessionRecord) => void insert.run(toRow(rec)),
    update: (rec: SessionRecord) => void update.run(toRow(rec)),
    count: () => countAll.get()!.n,
    list(q: SessionQuery): Session[] {
      const clauses: string[] = [];
      const params: unknown[] = [];
      if (q.siteId) {
        clauses.push('site_id = ?');
        params.push(q.siteId);
      }
      if (q.beforeSeq != null) {
        clauses.push('seq < ?');
        params.push(q.beforeSeq);
      }
      if (q.where) {
        clauses.push(`(${q.where.where})`);
        params.push(...q.where.params);
      }
      const sql = `SELECT * FROM sessions ${clauses.length ? `WHERE ${clauses.join(' AND ')}` : ''} ORDER BY seq DESC LIMIT ?`;
      params.push(Math.max(1, Math.min(q.limit ?? 50, 10_000)));
      return db.prepare<unknown[], Row>(sql).all(...params).map(rowToSession);
    },
    /** Raw rows for state export. */
    allRecords: (): SessionRecord[] => db.prepare<[], Row>('SELECT * FROM sessions ORDER BY seq').all().map(toRecord),
  };
}
export type SessionStore = ReturnType<typeof createSessionStore>;

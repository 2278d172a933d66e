import type { Statement } from 'better-sqlite3';
import { SESSION_FIELDS, type Session } from '../domain/session.js';
import { addBounded } from '../domain/bounded-map.js';
import { json, type Db } from './db.js';
import type { ReadCaches } from './read-cache.js';
import { NEWEST_FIRST, olderThan, type PageCursor } from './paging.js';

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

/** Columns holding a list, stored as JSON text: the session's and the bookkeeping `check_risks`. */
const ARRAY_COLUMNS = new Set<string>(['risks', 'actions', 'custom_events', 'check_risks']);
const INTERNAL = ['first_seen_us', 'last_seen_us', 'click_id', 'check_risks', 'seq'] as const;
const COLUMNS = [...SESSION_FIELDS, ...INTERNAL];
const COLUMN_LIST = COLUMNS.join(', ');
// A session's identity and origin never change after insert: an update leaves them out (and so
// leaves alone the indexes on them).
const FIXED = new Set<string>(['session_id', 'site_id', 'created_at', 'first_seen_us', 'seq', 'fingerprint']);
const UPDATED = COLUMNS.map((_, i) => i).filter((i) => !FIXED.has(COLUMNS[i]));

/** Sessions kept in memory (~2 KB each): a session is read far more often than it changes. */
const CACHE_ENTRIES = 4096;
/** Prepared narrow updates kept (one per set of changed columns). */
const NARROW_UPDATES = 64;

/** A row as read in raw mode: one value per column, in COLUMNS order. */
type RawRow = unknown[];
const AT = Object.fromEntries(COLUMNS.map((c, i) => [c, i])) as Record<(typeof COLUMNS)[number], number>;

/** A stored value as the API has it: arrays are JSON text, `returned` a 0/1. */
function fromStored(field: string, v: unknown): unknown {
  if (ARRAY_COLUMNS.has(field)) return json.parse(v as string, []);
  if (field === 'returned') return v == null ? null : v === 1;
  return v ?? null;
}

function toStored(field: string, v: unknown): unknown {
  if (ARRAY_COLUMNS.has(field)) return json.stringify(v ?? []);
  if (field === 'returned') return v == null ? null : v ? 1 : 0;
  return v;
}

/**
 * A raw row as a record. Frozen (the record, its session and their arrays): the read cache hands the
 * same record to every reader, and a change is made on a copy.
 */
function rawToRecord(raw: RawRow): SessionRecord {
  const session: Record<string, unknown> = {};
  for (let i = 0; i < SESSION_FIELDS.length; i++) {
    const v = fromStored(SESSION_FIELDS[i], raw[i]);
    session[SESSION_FIELDS[i]] = Array.isArray(v) ? Object.freeze(v) : v;
  }
  return Object.freeze({
    session: Object.freeze(session) as unknown as Session,
    first_seen_us: raw[AT.first_seen_us] as number,
    last_seen_us: raw[AT.last_seen_us] as number,
    click_id: (raw[AT.click_id] as string | null) ?? null,
    check_risks: Object.freeze(json.parse(raw[AT.check_risks] as string, [])) as unknown as string[],
    seq: raw[AT.seq] as number,
  });
}

/** Whether SQLite gives the text back as it was given (a lone surrogate comes back as U+FFFD). */
const wellFormed = (v: unknown): boolean => typeof v !== 'string' || (v as unknown as { isWellFormed(): boolean }).isWellFormed();

/**
 * What `rec` reads back as once written (over `before` for an update, which leaves FIXED alone):
 * rawToRecord's answer, made without reading the row back and parsing its arrays; null when a text
 * column would not read back as given (then the row is read).
 */
function asWritten(rec: SessionRecord, before: SessionRecord | null): SessionRecord | null {
  const session: Record<string, unknown> = {};
  for (const f of SESSION_FIELDS) {
    const v = before && FIXED.has(f) ? before.session[f] : rec.session[f];
    if (!wellFormed(v)) return null;
    session[f] = ARRAY_COLUMNS.has(f) ? Object.freeze([...((v as string[] | null) ?? [])]) : f === 'returned' ? (v == null ? null : !!v) : (v ?? null);
  }
  if (!wellFormed(rec.click_id)) return null;
  return Object.freeze({
    session: Object.freeze(session) as unknown as Session,
    first_seen_us: before ? before.first_seen_us : rec.first_seen_us,
    last_seen_us: rec.last_seen_us,
    click_id: rec.click_id ?? null,
    check_risks: Object.freeze([...(rec.check_risks ?? [])]) as string[],
    seq: before ? before.seq : rec.seq,
  });
}

/** Column i's value in the record (a session field or a bookkeeping one). */
const valueAt = (rec: SessionRecord, i: number): unknown =>
  i < SESSION_FIELDS.length ? rec.session[SESSION_FIELDS[i]] : rec[COLUMNS[i] as (typeof INTERNAL)[number]];

/** Whether two values of a column are stored as the same (arrays by their items). */
function sameStored(column: string, a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (ARRAY_COLUMNS.has(column)) {
    const x = (a ?? []) as unknown[];
    const y = (b ?? []) as unknown[];
    return x.length === y.length && x.every((v, k) => v === y[k]);
  }
  return (toStored(column, a) ?? null) === (toStored(column, b) ?? null);
}

/** The updatable columns whose stored value differs between the two records. */
function changedColumns(rec: SessionRecord, before: SessionRecord): number[] {
  return UPDATED.filter((i) => !sameStored(COLUMNS[i], valueAt(rec, i), valueAt(before, i)));
}

/** Column i's value as stored. */
const storedAt = (rec: SessionRecord, i: number): unknown => toStored(COLUMNS[i], valueAt(rec, i));

/** The record's values, in COLUMNS order. */
const toValues = (rec: SessionRecord): unknown[] => COLUMNS.map((_, i) => storedAt(rec, i));

export interface SessionQuery {
  siteId?: string;
  /** A compiled filter (see session-filter-sql.ts). */
  where?: { where: string; params: unknown[] };
  limit?: number;
  /** Paging: only sessions after this one in the list's order (`cursor(id)` of the previous page's last). */
  before?: PageCursor;
}

export function createSessionStore(db: Db, caches: ReadCaches) {
  const insert = db.prepare(`INSERT INTO sessions (${COLUMN_LIST}) VALUES (${COLUMNS.map(() => '?').join(', ')})`);
  const update = db.prepare(`UPDATE sessions SET ${UPDATED.map((i) => `${COLUMNS[i]} = ?`).join(', ')} WHERE session_id = ?`);
  // An update of a cached session sets only the columns that changed (a custom event: its list,
  // updated_at, maybe value and engagement). Binding every column cost more than the change, and a
  // column in the SET list has its indexes rewritten even when its value stays the same. One
  // statement per set of columns; the services make a handful of them.
  const narrow = new Map<string, Statement>();
  const updateOf = (columns: number[]): Statement => {
    const key = columns.join(',');
    let stmt = narrow.get(key);
    if (!stmt) addBounded(narrow, key, (stmt = db.prepare(`UPDATE sessions SET ${columns.map((i) => `${COLUMNS[i]} = ?`).join(', ')} WHERE session_id = ?`)), NARROW_UPDATES);
    return stmt;
  };
  const byId = db.prepare<[string], RawRow>(`SELECT ${COLUMN_LIST} FROM sessions WHERE session_id = ?`).raw(true);
  const latestForFp = db
    .prepare<[string, string], RawRow>(`SELECT ${COLUMN_LIST} FROM sessions WHERE site_id = ? AND fingerprint = ? ORDER BY last_seen_us DESC LIMIT 1`)
    .raw(true);
  const countAll = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM sessions');
  const cursorOf = db.prepare<[string], PageCursor>('SELECT seq, rowid FROM sessions WHERE session_id = ?');
  // Every write below forgets the session first; see read-cache.ts for the rest of the rules.
  const cache = caches.txCache<SessionRecord>(CACHE_ENTRIES);
  const read = (raw: RawRow | undefined): SessionRecord | null => (raw ? rawToRecord(raw) : null);

  return {
    /** The session as stored (frozen: copy it to change it), or null. */
    get: (id: string): SessionRecord | null => cache.get(id, () => read(byId.get(id))),
    latestForVisitor: (siteId: string, fingerprint: string): SessionRecord | null => read(latestForFp.get(siteId, fingerprint)),
    // A written record is cached as it now reads (asWritten): the next change or read of the same
    // session (each custom event, a GET after it) need not read the row back and parse its arrays,
    // which grow with every event.
    insert: (rec: SessionRecord) => {
      cache.delete(rec.session.session_id);
      insert.run(toValues(rec));
      const written = asWritten(rec, null);
      if (written) cache.set(rec.session.session_id, written);
    },
    /**
     * Writes the columns that may change (all but the session's identity and origin): those that
     * differ from the cached record, or all of them when it is not cached.
     */
    update: (rec: SessionRecord) => {
      const id = rec.session.session_id;
      const before = cache.get(id, () => null);
      cache.delete(id);
      if (before) {
        const columns = changedColumns(rec, before);
        if (columns.length > 0) updateOf(columns).run(...columns.map((i) => storedAt(rec, i)), id);
      } else {
        const values = toValues(rec);
        update.run(...UPDATED.map((i) => values[i]), id);
      }
      const written = before && asWritten(rec, before);
      if (written) cache.set(id, written);
    },
    count: () => countAll.get()!.n,
    /** Where a page ending at this session ends (for `list({ before })`), or null for an unknown id. */
    cursor: (id: string): PageCursor | null => cursorOf.get(id) ?? null,
    list(q: SessionQuery): Session[] {
      const clauses: string[] = [];
      const params: unknown[] = [];
      if (q.siteId) {
        clauses.push('site_id = ?');
        params.push(q.siteId);
      }
      const before = olderThan(q.before);
      if (before) {
        const [sql, ...values] = before;
        clauses.push(sql);
        params.push(...values);
      }
      if (q.where) {
        clauses.push(`(${q.where.where})`);
        params.push(...q.where.params);
      }
      const sql = `SELECT ${COLUMN_LIST} FROM sessions ${clauses.length ? `WHERE ${clauses.join(' AND ')}` : ''} ${NEWEST_FIRST} LIMIT ?`;
      params.push(Math.max(1, Math.min(q.limit ?? 50, 10_000)));
      return (db.prepare(sql).raw(true).all(...params) as RawRow[]).map((raw) => rawToRecord(raw).session);
    },
  };
}
export type SessionStore = ReturnType<typeof createSessionStore>;

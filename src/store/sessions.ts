import { SESSION_FIELDS, type Session } from '../domain/session.js';
import { json, type Db } from './db.js';
import type { ReadCaches } from './read-cache.js';
import { NEWEST_FIRST, olderThan, type PageCursor } from './paging.js';
import { addBounded } from '../domain/bounded-map.js';

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
const COLUMN_LIST = COLUMNS.join(', ');

type Row = Record<string, unknown>;
const STORED = Symbol('stored values');
/** A row read in raw mode: one value per column, in COLUMNS order. */
type RawRow = unknown[];

// How each Session field is stored: 0 as is, 1 a JSON array, 2 a 0/1 boolean. Precomputed, so the
// hot read/write paths (every API request reads or writes a session) do no per-field lookups.
const KIND: readonly (0 | 1 | 2)[] = SESSION_FIELDS.map((f) => (ARRAY_FIELDS.has(f) ? 1 : f === 'returned' ? 2 : 0));
const N_FIELDS = SESSION_FIELDS.length;
const AT = Object.fromEntries(COLUMNS.map((c, i) => [c, i])) as Record<(typeof COLUMNS)[number], number>;

function fromStored(kind: 0 | 1 | 2, v: unknown): unknown {
  if (kind === 1) return json.parse(v as string, []);
  if (kind === 2) return v == null ? null : v === 1;
  return v ?? null;
}

function toStored(kind: 0 | 1 | 2, v: unknown): unknown {
  if (kind === 1) return json.stringify(v ?? []);
  if (kind === 2) return v == null ? null : v ? 1 : 0;
  return v;
}

export function rowToSession(row: Row): Session {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < N_FIELDS; i++) out[SESSION_FIELDS[i]] = fromStored(KIND[i], row[SESSION_FIELDS[i]]);
  return out as unknown as Session;
}

/** The named fields of a raw row whose first values are those fields, in order, as the API has them. */
function pickFields(raw: RawRow, fields: readonly string[], kinds: readonly (0 | 1 | 2)[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < fields.length; i++) out[fields[i]] = fromStored(kinds[i], raw[i]);
  return out;
}

function rawToSession(raw: RawRow): Session {
  return pickFields(raw, SESSION_FIELDS, KIND) as unknown as Session;
}

function rawToRecord(raw: RawRow): SessionRecord {
  return {
    session: rawToSession(raw),
    first_seen_us: raw[AT.first_seen_us] as number,
    last_seen_us: raw[AT.last_seen_us] as number,
    click_id: (raw[AT.click_id] as string) ?? null,
    check_risks: json.parse(raw[AT.check_risks] as string, []),
    seq: raw[AT.seq] as number,
  };
}

/** The record's values in COLUMNS order (positional binding: no per-call name lookups). */
function toValues(rec: SessionRecord): unknown[] {
  const values = new Array<unknown>(COLUMNS.length);
  for (let i = 0; i < N_FIELDS; i++) values[i] = toStored(KIND[i], rec.session[SESSION_FIELDS[i]]);
  values[AT.first_seen_us] = rec.first_seen_us;
  values[AT.last_seen_us] = rec.last_seen_us;
  values[AT.click_id] = rec.click_id;
  values[AT.check_risks] = json.stringify(rec.check_risks);
  values[AT.seq] = rec.seq;
  return values;
}

/** What a visitor check reads of the probe's session: a narrower read than get() (a third of the columns). */
export const CHECK_FIELDS = [
  'session_id', 'ip', 'risks', 'fingerprint', 'returned', 'browser_name', 'browser_family', 'browser_version',
  'os_family', 'os_version', 'device_type', 'language', 'timezone', 'user_agent',
] as const satisfies readonly (keyof Session)[];
export type CheckSession = Pick<Session, (typeof CHECK_FIELDS)[number]>;
/** A CheckSession and the risks checks already added to it. */
export interface CheckSessionRecord {
  readonly session: Readonly<CheckSession>;
  readonly check_risks: readonly string[];
}
const CHECK_KIND = CHECK_FIELDS.map((f) => KIND[SESSION_FIELDS.indexOf(f)]);

/**
 * What a custom event reads of its session: the fields it changes and those the derived levels are
 * computed from. A session is ~50 columns and a custom event changes 2–5 of them. Its
 * `custom_events` stay the stored JSON text (see domain/json-array.ts): a long session's earlier
 * events are neither parsed nor serialised again.
 */
export const EVENT_FIELDS = [
  'site_id', 'site_name', 'updated_at', 'value', 'page_views', 'duration', 'ip', 'country_code',
  'referrer_domain', 'user_agent', 'risks', 'risk_level', 'engagement_level',
] as const satisfies readonly (keyof Session)[];
export type EventSession = Pick<Session, (typeof EVENT_FIELDS)[number]>;
/** An EventSession as read, with the stored values it was read from (updateForEvent compares them). */
export interface EventSessionRecord {
  session: EventSession;
  /** The stored JSON array text. */
  custom_events: string;
  check_risks: string[];
  stored: readonly unknown[];
}
const EVENT_KIND = EVENT_FIELDS.map((f) => KIND[SESSION_FIELDS.indexOf(f)]);
const EVENT_AT = EVENT_FIELDS.map((f) => AT[f]);

export interface SessionQuery {
  siteId?: string;
  /** A compiled filter (see session-filter-sql.ts). */
  where?: { where: string; params: unknown[] };
  limit?: number;
  /** Paging: only sessions after this one in the list's order (`cursor(id)` of the previous page's last). */
  before?: PageCursor;
}

/** Sessions whose public JSON is kept in memory for GET /api/v1/session/{id} (~1.2 KB each). */
const JSON_CACHE_ENTRIES = 4096;

export function createSessionStore(db: Db, caches: ReadCaches) {
  const insert = db.prepare(`INSERT INTO sessions (${COLUMN_LIST}) VALUES (${COLUMNS.map(() => '?').join(', ')})`);
  // A session's identity and origin never change after insert (session_id, site_id, created_at,
  // first_seen_us, seq): update() leaves them out, so SQLite does not touch the two indexes on seq.
  const FIXED = new Set(['session_id', 'site_id', 'created_at', 'first_seen_us', 'seq']);
  const SET_AT = COLUMNS.map((c, i) => (FIXED.has(c) ? -1 : i)).filter((i) => i !== -1);
  const update = db.prepare(`UPDATE sessions SET ${SET_AT.map((i) => `${COLUMNS[i]} = ?`).join(', ')} WHERE session_id = ?`);
  const updateValues = (rec: SessionRecord) => {
    const all = toValues(rec);
    const v = SET_AT.map((i) => all[i]);
    v.push(all[AT.session_id]);
    return v;
  };
  // The stored values of each record read here (raw rows, COLUMNS order). update() compares against
  // them and writes only the columns that changed: a custom event then sets 2–4 columns instead of
  // ~45, and SQLite leaves alone every index whose columns it did not set (the visitor index on
  // fingerprint and last_seen_us was rewritten on every change before).
  // Kept on the record under a symbol, not enumerable (copies and comparisons do not see it); a
  // WeakMap costs every young-generation GC an ephemeron pass over all the records read.
  const partialUpdates = new Map<string, { run(...values: unknown[]): unknown }>();
  const partialUpdate = (changed: number[]) => {
    const key = changed.join(',');
    let stmt = partialUpdates.get(key);
    if (!stmt) {
      stmt = db.prepare(`UPDATE sessions SET ${changed.map((i) => `${COLUMNS[i]} = ?`).join(', ')} WHERE session_id = ?`);
      addBounded(partialUpdates, key, stmt, 64);
    }
    return stmt;
  };
  const read = (raw: RawRow | undefined): SessionRecord | null => {
    if (!raw) return null;
    const rec = rawToRecord(raw);
    Object.defineProperty(rec, STORED, { value: raw });
    return rec;
  };
  const byId = db.prepare<[string], RawRow>(`SELECT ${COLUMN_LIST} FROM sessions WHERE session_id = ?`).raw(true);
  const latestForFp = db
    .prepare<[string, string], RawRow>(`SELECT ${COLUMN_LIST} FROM sessions WHERE site_id = ? AND fingerprint = ? ORDER BY last_seen_us DESC LIMIT 1`)
    .raw(true);
  // The public JSON built by SQLite: one text value instead of ~50 to convert and serialise again
  // (GET /api/v1/session/{id}). Same bytes as JSON.stringify(rawToSession(row)): SESSION_FIELDS
  // order, arrays and booleans as JSON. SQLite prints some doubles differently from JavaScript
  // (1.0e+21, 0.33333333333333332), so a number that is not a safe integer takes the JS path.
  // (A REAL that holds a whole number, e.g. a value of 4.0, would print as 4.0: cast to INTEGER.)
  const NUMERIC = new Set(['duration', 'page_views', 'value']);
  const jsonArgs = SESSION_FIELDS.map((f, i) => {
    const v = KIND[i] === 1 ? `CASE WHEN json_valid(${f}) THEN json(${f}) ELSE json('[]') END`
      : KIND[i] === 2 ? `CASE ${f} WHEN 1 THEN json('true') WHEN 0 THEN json('false') END`
      : NUMERIC.has(f) ? `CASE WHEN typeof(${f}) = 'real' THEN CAST(${f} AS INTEGER) ELSE ${f} END` : f;
    return `'${f}', ${v}`;
  });
  const byIdJson = db
    .prepare<[string], [string, unknown, unknown, unknown, string]>(`SELECT site_id, duration, page_views, value, json_object(${jsonArgs.join(', ')}) FROM sessions WHERE session_id = ?`)
    .raw(true);
  const forCheck = db.prepare<[string], RawRow>(`SELECT ${CHECK_FIELDS.join(', ')}, check_risks FROM sessions WHERE session_id = ?`).raw(true);
  const forEvent = db.prepare<[string], RawRow>(`SELECT ${EVENT_FIELDS.join(', ')}, custom_events, check_risks FROM sessions WHERE session_id = ?`).raw(true);
  const plainNumber = (v: unknown) => v === null || (typeof v === 'number' && Number.isSafeInteger(v)) || typeof v === 'string';
  const countAll = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM sessions');
  const cursorOf = db.prepare<[string], PageCursor>('SELECT seq, rowid FROM sessions WHERE session_id = ?');
  // List queries differ only by their filter: keep the most recent statements prepared.
  type ListStatement = { all(...params: unknown[]): unknown[] };
  const listStatements = new Map<string, ListStatement>();
  const listStatement = (sql: string): ListStatement => {
    let stmt = listStatements.get(sql);
    if (stmt) {
      listStatements.delete(sql); // re-inserted: most recently used last
      listStatements.set(sql, stmt);
    } else {
      stmt = db.prepare<unknown[]>(sql).raw(true) as unknown as ListStatement;
      addBounded(listStatements, sql, stmt, 64);
    }
    return stmt;
  };

  const loadJson = (id: string): { site_id: string; json: string } | null => {
    const r = byIdJson.get(id);
    if (!r) return null;
    if (plainNumber(r[1]) && plainNumber(r[2]) && plainNumber(r[3])) return { site_id: r[0], json: r[4] };
    const raw = byId.get(id);
    return raw ? { site_id: raw[AT.site_id] as string, json: JSON.stringify(rawToSession(raw)) } : null;
  };
  // A session is read far more often than it changes (an app asks for it on each request it serves;
  // it changes on page views and events). Every write below deletes its entry first; inside a
  // transaction the cache is not used at all, so an uncommitted write is never cached.
  const jsonCache = caches.cache<{ site_id: string; json: string }>(JSON_CACHE_ENTRIES);
  // What a visitor check reads of the probe's session, also inside a transaction (a check runs in
  // the group commit's): every write below deletes the entry first, and a rollback empties it.
  const checkCache = caches.txCache<CheckSessionRecord>(JSON_CACHE_ENTRIES);
  const forget = (id: string) => {
    jsonCache.delete(id);
    checkCache.delete(id);
  };

  return {
    get: (id: string): SessionRecord | null => read(byId.get(id)),
    /** The session's public JSON text and its site, or null. */
    getJson: (id: string): { site_id: string; json: string } | null =>
      db.inTransaction ? loadJson(id) : jsonCache.get(id, () => loadJson(id)),
    /** The fields a visitor check uses, and the risks checks already added, or null. */
    forCheck: (id: string): CheckSessionRecord | null =>
      checkCache.get(id, () => {
        const raw = forCheck.get(id);
        if (!raw) return null;
        // Frozen: the cached record is shared by every check that reads it.
        const session = pickFields(raw, CHECK_FIELDS, CHECK_KIND) as CheckSession;
        Object.freeze(session.risks);
        return Object.freeze({ session: Object.freeze(session), check_risks: Object.freeze(json.parse(raw[CHECK_FIELDS.length] as string, [])) });
      }),
    /** The fields a custom event changes or derives from, or null. */
    forEvent: (id: string): EventSessionRecord | null => {
      const raw = forEvent.get(id);
      if (!raw) return null;
      const n = EVENT_FIELDS.length;
      return { session: pickFields(raw, EVENT_FIELDS, EVENT_KIND) as EventSession, custom_events: raw[n] as string, check_risks: json.parse(raw[n + 1] as string, []), stored: raw };
    },
    /** Writes `customEvents` (JSON text) and the fields of `next` that differ from what `from` read (forEvent). */
    updateForEvent: (id: string, from: EventSessionRecord, next: EventSession, customEvents: string) => {
      forget(id);
      const changed: number[] = [AT.custom_events];
      const args: unknown[] = [customEvents];
      for (let i = 0; i < EVENT_FIELDS.length; i++) {
        const v = toStored(EVENT_KIND[i], next[EVENT_FIELDS[i]]);
        if (v === from.stored[i]) continue;
        changed.push(EVENT_AT[i]);
        args.push(v);
      }
      args.push(id);
      partialUpdate(changed).run(...args);
    },
    latestForVisitor: (siteId: string, fingerprint: string): SessionRecord | null => read(latestForFp.get(siteId, fingerprint)),
    insert: (rec: SessionRecord) => {
      forget(rec.session.session_id);
      insert.run(toValues(rec));
    },
    /** Writes `rec`; given the record it was made from (as read here), only the columns that changed. */
    update: (rec: SessionRecord, from?: SessionRecord | null) => {
      forget(rec.session.session_id);
      const stored = from ? (from as { [STORED]?: RawRow })[STORED] : undefined;
      if (!stored || stored[AT.session_id] !== rec.session.session_id) return void update.run(updateValues(rec));
      const values = toValues(rec);
      const changed = SET_AT.filter((i) => values[i] !== stored[i]);
      if (changed.length === 0) return;
      const args = changed.map((i) => values[i]);
      args.push(rec.session.session_id);
      partialUpdate(changed).run(...args);
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
      return (listStatement(sql).all(...params) as RawRow[]).map(rawToSession);
    },
  };
}
export type SessionStore = ReturnType<typeof createSessionStore>;

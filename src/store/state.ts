// Whole-database state: export every table's raw rows, import them back (replacing everything in one
// transaction), reset. The only module that reads rows generically, so a table added by a later
// migration is exported without changes here. The request log is diagnostics, not state; a webhook
// or notification claim belongs to a running process.
import type { Db } from './db.js';
import type { ReadCaches } from './read-cache.js';
import { CURRENT_ZONE_NAMES_SQL, RULE_SEQ_SQL, SCHEMA_VERSION } from './migrations.js';
import { VtrError } from '../domain/errors.js';
import { writeStateBytes, type StateBytes } from './state-export.js';
import { columnProblem, rowProblem, TIMESTAMP, TIMESTAMP_PROBLEM } from './state-rules.js';

export const STATE_VERSION = 1;

/** The order tables appear in an export (parents first, for readers); any other table follows. */
const KNOWN_ORDER = [
  'sites', 'access_tokens', 'rules', 'sessions', 'probes', 'checks', 'saved_views', 'view_matches',
  'webhooks', 'webhook_events', 'webhook_attempts', 'notifications', 'meta',
];
const NOT_STATE = new Set(['request_log', 'webhook_claims', 'notification_claims']);

export type StateRow = Record<string, string | number | null>;

export interface StateDocument {
  vtr_state_version: number;
  exported_at: string;
  schema_version: number;
  tables: Record<string, StateRow[]>;
}

interface TableInfo {
  name: string;
  /** Column name → declared type. */
  columns: Map<string, string>;
  /** Primary key columns (empty for a rowid table). */
  primaryKey: string[];
  /** ORDER BY clause: primary key columns, or rowid. */
  order: string;
}

const q = (ident: string) => `"${ident.replace(/"/g, '""')}"`;

/**
 * `storageError`: the contract's error for a storage fault or a lock held elsewhere (a full disk is
 * not a fault of the file being imported), else null.
 */
/** `unit`: the store's (after-commit.ts), so what an import or reset announces waits for its COMMIT. */
export function createStateStore(db: Db, caches: ReadCaches, storageError: (error: unknown) => Error | null, unit: <T>(body: () => T) => T = (body) => body()) {
  /** Which imported row refers to a row the file does not have, with the values it refers by. */
  const danglingReference = (b: { table: string; rowid: number | null; parent: string; fkid: number }): string => {
    const from = (db.pragma(`foreign_key_list(${q(b.table)})`) as Array<{ id: number; from: string }>).filter((f) => f.id === b.fkid).map((f) => f.from);
    const row = b.rowid == null ? undefined : (db.prepare(`SELECT ${from.map(q).join(', ')} FROM ${q(b.table)} WHERE rowid = ?`).get(b.rowid) as Record<string, unknown> | undefined);
    const by = row ? ` (${from.map((c) => `${c} ${JSON.stringify(row[c])}`).join(', ')})` : '';
    return `the rows do not fit together: a row of tables.${b.table}${by} refers to no row of tables.${b.parent}`;
  };
  let cached: TableInfo[] | null = null;
  const tables = (): TableInfo[] => {
    if (cached) return cached;
    const names = db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      .all()
      .map((r) => r.name)
      .filter((n) => !NOT_STATE.has(n));
    const rank = (n: string) => (KNOWN_ORDER.includes(n) ? KNOWN_ORDER.indexOf(n) : KNOWN_ORDER.length);
    names.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
    cached = names.map((name) => {
      const cols = db.prepare<[], { name: string; pk: number; type: string }>(`PRAGMA table_info(${q(name)})`).all();
      const keyColumns = cols.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name);
      const order = keyColumns.length ? keyColumns.map(q).join(', ') : 'rowid';
      return { name, columns: new Map(cols.map((c) => [c.name, c.type])), primaryKey: keyColumns, order };
    });
    return cached;
  };

  /**
   * Exactly one site is the default (the one `vtr exec` and the CLI use, that is never deleted last):
   * a file whose sites are none the default gets its oldest as the default (the site reads took);
   * one with several is refused, naming them.
   */
  const oneDefaultSite = () => {
    const defaults = db.prepare<[], { site_id: string }>('SELECT site_id FROM sites WHERE is_default = 1 ORDER BY created_at, rowid').all();
    if (defaults.length > 1) {
      throw bad(`tables.sites: ${defaults.length} sites are the default (is_default 1: ${defaults.map((d) => d.site_id).join(', ')}); mark one, the others is_default 0`);
    }
    if (defaults.length === 0) db.prepare('UPDATE sites SET is_default = 1 WHERE rowid = (SELECT rowid FROM sites ORDER BY created_at, rowid LIMIT 1)').run();
  };

  const clearAll = (extra: string[] = []) => {
    caches.noteWrite();
    for (const t of [...tables().map((t) => t.name), ...extra]) db.prepare(`DELETE FROM ${q(t)}`).run();
  };

  return {
    /**
     * Every state table's rows, ordered by primary key, read in one transaction (a consistent
     * snapshot), as objects: for a small database (tests); exportBytes holds any size.
     */
    export(exportedAt: string): StateDocument {
      const read = db.transaction(() => {
        const out: Record<string, StateRow[]> = {};
        for (const t of tables()) out[t.name] = db.prepare<[], StateRow>(`SELECT * FROM ${q(t.name)} ORDER BY ${t.order}`).all();
        return out;
      });
      return { vtr_state_version: STATE_VERSION, exported_at: exportedAt, schema_version: SCHEMA_VERSION, tables: read() };
    },

    /**
     * The same document as bytes, for a database of any size: what `GET /_vtr/api/state` and
     * `--export-on-exit` send (state-export.ts says why it is read whole before it is sent).
     */
    exportBytes(exportedAt: string): StateBytes {
      const head = { vtr_state_version: STATE_VERSION, exported_at: exportedAt, schema_version: SCHEMA_VERSION };
      return db.transaction(() => writeStateBytes(db, head, tables()))();
    },

    /**
     * Replaces all state with the document's rows, in one transaction; nothing changes on error.
     * `within`: more writes made in that transaction (the default site of a file without one).
     */
    import<T = void>(doc: unknown, within?: () => T): { counts: Record<string, number>; then: T } {
      const d = checkDocument(doc);
      const known = new Map(tables().map((t) => [t.name, t]));
      for (const name of Object.keys(d.tables)) {
        if (!known.has(name)) throw bad(`tables.${name}: not a table of this vtr (tables: ${[...known.keys()].join(', ')})`);
      }
      const counts: Record<string, number> = {};
      const run = db.transaction(() => {
        // References are checked at commit, so rows may come in any order.
        db.pragma('defer_foreign_keys = ON');
        clearAll();
        for (const [name, rows] of Object.entries(d.tables)) {
          const info = known.get(name)!;
          const statements = new Map<string, ReturnType<Db['prepare']>>();
          type Stmt = { run(...values: unknown[]): unknown };
          rows.forEach((row, i) => {
            const where = `tables.${name}[${i}]`;
            if (!row || typeof row !== 'object' || Array.isArray(row)) throw bad(`${where}: must be an object`);
            const cols = Object.keys(row);
            for (const c of cols) {
              if (!info.columns.has(c)) throw bad(`${where}: ${name} has no column ${JSON.stringify(c)}`);
              const v = (row as Record<string, unknown>)[c];
              if (v !== null && typeof v !== 'string' && typeof v !== 'number') throw bad(`${where}.${c}: must be a string, number or null`);
              const problem = columnProblem(name, c, info.columns.get(c)!, v);
              if (problem) throw bad(`${where}.${c}: ${problem}`);
            }
            const rowIssue = rowProblem(name, row as Record<string, string | number | null>, info.primaryKey);
            if (rowIssue) throw bad(`${where}.${rowIssue}`);
            const key = cols.join('\u0000');
            let stmt = statements.get(key);
            if (!stmt) {
              stmt = db.prepare(`INSERT INTO ${q(name)} (${cols.map(q).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`);
              statements.set(key, stmt);
            }
            try {
              (stmt as unknown as Stmt).run(...cols.map((c) => (row as StateRow)[c]));
            } catch (err) {
              if (err instanceof VtrError) throw err; // a storage fault, classified by the write guard
              throw bad(`${where}: ${(err as Error).message}`);
            }
          });
          counts[name] = rows.length;
        }
        // An export from before schema version 5 has sessions under old tz names, as its database had.
        db.exec(CURRENT_ZONE_NAMES_SQL);
        // An export from before schema version 6 has rules without seq: they follow their created_at.
        db.exec(RULE_SEQ_SQL);
        oneDefaultSite();
        // Named here: at COMMIT SQLite would only say "FOREIGN KEY constraint failed".
        const broken = db.pragma('foreign_key_check') as Array<{ table: string; rowid: number | null; parent: string; fkid: number }>;
        if (broken.length > 0) throw bad(danglingReference(broken[0]));
        return within?.() as T;
      });
      let then: T;
      try {
        then = unit(() => run.immediate());
      } catch (err) {
        if (err instanceof VtrError) throw err;
        // BEGIN waiting for another process's lock, a COMMIT the disk cannot take.
        const storage = storageError(err);
        if (storage) throw storage;
        // A deferred foreign key fails at COMMIT.
        throw bad(`the rows do not fit together: ${(err as Error).message}`);
      } finally {
        caches.transactionEnded();
      }
      return { counts, then };
    },

    /**
     * Deletes every row of every table, the request log included, then runs `within` (the first
     * start's writes) in the same transaction: an error in either leaves everything as it was.
     */
    reset<T = void>(within?: () => T): T {
      try {
        return unit(() => db.transaction(() => {
          clearAll(['request_log']);
          return within?.() as T;
        }).immediate());
      } catch (err) {
        throw storageError(err) ?? err;
      } finally {
        caches.transactionEnded();
      }
    },
  };
}
export type StateStore = ReturnType<typeof createStateStore>;

const bad = (message: string) => new VtrError('invalid_request', message);
/** One wording for either version being past this vtr's, whichever way the file is imported. */
const newer = (field: string, found: number, readable: number) =>
  new VtrError('schema_too_new', `this state export was made by a newer vtr (${field} ${found}; this vtr reads up to ${readable}): upgrade vtr to import it`);

function checkDocument(doc: unknown): { tables: Record<string, StateRow[]> } {
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw bad('not a vtr state export: expected a JSON object with vtr_state_version');
  const d = doc as Partial<StateDocument>;
  if (d.vtr_state_version === undefined) throw bad('not a vtr state export: vtr_state_version is missing (make one with `vtr state export <file>`)');
  if (typeof d.vtr_state_version !== 'number' || !Number.isInteger(d.vtr_state_version) || d.vtr_state_version < 1) {
    throw bad(`not a vtr state export: vtr_state_version ${JSON.stringify(d.vtr_state_version)} is not a version number`);
  }
  if (d.vtr_state_version > STATE_VERSION) throw newer('vtr_state_version', d.vtr_state_version, STATE_VERSION);
  // Left out (a hand-written file), it is this vtr's; given, it must be a version number.
  if (d.schema_version !== undefined && (typeof d.schema_version !== 'number' || !Number.isInteger(d.schema_version) || d.schema_version < 1)) {
    throw bad(`not a vtr state export: schema_version ${JSON.stringify(d.schema_version)} is not a version number`);
  }
  if (typeof d.schema_version === 'number' && d.schema_version > SCHEMA_VERSION) throw newer('schema_version', d.schema_version, SCHEMA_VERSION);
  // Where the exporting clock stood: the importing clock moves at least there.
  if (d.exported_at != null && !(typeof d.exported_at === 'string' && TIMESTAMP.test(d.exported_at))) throw bad(`exported_at: ${TIMESTAMP_PROBLEM}`);
  if (!d.tables || typeof d.tables !== 'object' || Array.isArray(d.tables)) throw bad('tables: must be an object of table name → rows');
  for (const [name, rows] of Object.entries(d.tables)) if (!Array.isArray(rows)) throw bad(`tables.${name}: must be an array of rows`);
  return d as { tables: Record<string, StateRow[]> };
}

// Importing a state document: its checks (named `tables.<name>[i].<column>`, in a fixed order) and
// the one transaction that replaces all state with its rows, for a document already in memory and
// for one read as it arrives (state-staging.ts).
import type BetterSqlite3 from 'better-sqlite3';
import type { Db } from './db.js';
import { CURRENT_ZONE_NAMES_SQL, RULE_SEQ_SQL, SCHEMA_VERSION } from './migrations.js';
import { VtrError } from '../domain/errors.js';
import { stageImport } from './state-staging.js';
import { STATE_VERSION, type StateDocument, type StateRow, type TableInfo } from './state.js';
import { columnProblem, rowProblem, TIMESTAMP, TIMESTAMP_PROBLEM } from './state-rules.js';


export interface ImportDeps {
  db: Db;
  tables: () => TableInfo[];
  /** Empties every state table (in the open transaction). */
  clearAll: () => void;
  caches: { transactionEnded(): void };
  /** The contract's error for a storage fault or a lock held elsewhere, else null. */
  storageError: (error: unknown) => Error | null;
  /** The store's unit (after-commit.ts): what an import announces waits for its COMMIT. */
  unit: <T>(body: () => T) => T;
  /** The database file (':memory:' or '' for none): a staging file goes beside it. */
  path: string;
}

export const q = (ident: string) => `"${ident.replace(/"/g, '""')}"`;
export const bad = (message: string) => new VtrError('invalid_request', message);
type Stmt = { run(...values: unknown[]): unknown };

/**
 * A row writer for one table on `target` (the live database or a staging one): checks, then inserts.
 * `fault`: the error for a write that failed for want of storage, not for the row.
 */
export function rowWriter(target: BetterSqlite3.Database, info: TableInfo, fault: (error: unknown) => Error | null = () => null) {
  const name = info.name;
  const statements = new Map<string, Stmt>();
  return (row: unknown, i: number): void => {
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
    const rowIssue = rowProblem(name, row as StateRow, info.primaryKey);
    if (rowIssue) throw bad(`${where}.${rowIssue}`);
    const key = cols.join('\u0000');
    let stmt = statements.get(key);
    if (!stmt) {
      stmt = target.prepare(`INSERT INTO ${q(name)} (${cols.map(q).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`) as unknown as Stmt;
      statements.set(key, stmt);
    }
    try {
      stmt.run(...cols.map((c) => (row as StateRow)[c]));
    } catch (err) {
      if (err instanceof VtrError) throw err; // a storage fault, classified by the write guard
      throw fault(err) ?? bad(`${where}: ${(err as Error).message}`);
    }
  };
}

/** The tables a document names that this vtr does not have: the first is refused. */
export function unknownTable(names: Iterable<string>, known: Map<string, TableInfo>): VtrError | null {
  for (const name of names) {
    if (!known.has(name)) return bad(`tables.${name}: not a table of this vtr (tables: ${[...known.keys()].join(', ')})`);
  }
  return null;
}

export function createImporter(deps: ImportDeps) {
  const { db } = deps;

  /** Which imported row refers to a row the file does not have, with the values it refers by. */
  const danglingReference = (b: { table: string; rowid: number | null; parent: string; fkid: number }): string => {
    const from = (db.pragma(`main.foreign_key_list(${q(b.table)})`) as Array<{ id: number; from: string }>).filter((f) => f.id === b.fkid).map((f) => f.from);
    const row = b.rowid == null ? undefined : (db.prepare(`SELECT ${from.map(q).join(', ')} FROM main.${q(b.table)} WHERE rowid = ?`).get(b.rowid) as Record<string, unknown> | undefined);
    const by = row ? ` (${from.map((c) => `${c} ${JSON.stringify(row[c])}`).join(', ')})` : '';
    return `the rows do not fit together: a row of tables.${b.table}${by} refers to no row of tables.${b.parent}`;
  };

  /**
   * Exactly one site is the default (the one `vtr exec` and the CLI use, that is never deleted last):
   * a file whose sites are none the default gets its oldest as the default (the site reads took);
   * one with several is refused, naming them.
   */
  const oneDefaultSite = () => {
    const defaults = db.prepare<[], { site_id: string }>('SELECT site_id FROM main.sites WHERE is_default = 1 ORDER BY created_at, rowid').all();
    if (defaults.length > 1) {
      throw bad(`tables.sites: ${defaults.length} sites are the default (is_default 1: ${defaults.map((d) => d.site_id).join(', ')}); mark one, the others is_default 0`);
    }
    if (defaults.length === 0) db.prepare('UPDATE main.sites SET is_default = 1 WHERE rowid = (SELECT rowid FROM main.sites ORDER BY created_at, rowid LIMIT 1)').run();
  };

  /**
   * Replaces all state in one transaction: empties the tables, `fill` writes the rows, then what
   * every import does after them; `within` adds more writes (the default site of a file without one).
   */
  function replace<T>(fill: () => void, within?: () => T): T {
    const run = db.transaction(() => {
      // References are checked at commit, so rows may come in any order.
      db.pragma('defer_foreign_keys = ON');
      deps.clearAll();
      fill();
      // An export from before schema version 5 has sessions under old tz names, as its database had.
      db.exec(CURRENT_ZONE_NAMES_SQL);
      // An export from before schema version 6 has rules without seq: they follow their created_at.
      db.exec(RULE_SEQ_SQL);
      oneDefaultSite();
      // Named here: at COMMIT SQLite would only say "FOREIGN KEY constraint failed".
      const broken = db.pragma('main.foreign_key_check') as Array<{ table: string; rowid: number | null; parent: string; fkid: number }>;
      if (broken.length > 0) throw bad(danglingReference(broken[0]));
      return within?.() as T;
    });
    try {
      return deps.unit(() => run.immediate());
    } catch (err) {
      if (err instanceof VtrError) throw err;
      // BEGIN waiting for another process's lock, a COMMIT the disk cannot take.
      const storage = deps.storageError(err);
      if (storage) throw storage;
      // A deferred foreign key fails at COMMIT.
      throw bad(`the rows do not fit together: ${(err as Error).message}`);
    } finally {
      deps.caches.transactionEnded();
    }
  }

  return {
    /** A document in memory: checked as a whole, then its rows written in the transaction. */
    importDocument<T>(doc: unknown, within?: () => T): { counts: Record<string, number>; then: T } {
      const d = checkDocument(doc);
      const known = new Map(deps.tables().map((t) => [t.name, t]));
      const unknown = unknownTable(Object.keys(d.tables), known);
      if (unknown) throw unknown;
      const counts: Record<string, number> = {};
      const then = replace(() => {
        for (const [name, rows] of Object.entries(d.tables)) {
          const write = rowWriter(db, known.get(name)!);
          rows.forEach(write);
          counts[name] = rows.length;
        }
      }, within);
      return { counts, then };
    },
    /** A document read as it arrives: see the top of this file. */
    staged: () => stageImport(deps, replace),
  };
}

/** One wording for either version being past this vtr's, whichever way the file is imported. */
const newer = (field: string, found: number, readable: number) =>
  new VtrError('schema_too_new', `this state export was made by a newer vtr (${field} ${found}; this vtr reads up to ${readable}): upgrade vtr to import it`);

export function checkDocument(doc: unknown): { tables: Record<string, StateRow[]> } {
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

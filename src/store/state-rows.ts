// A state document's shape, its checks (named `tables.<name>[i].<column>`, in a fixed order) and
// the writer of its rows: shared by the import of a document in memory (state-import.ts) and of one
// read as it arrives (state-staging.ts).
import type BetterSqlite3 from 'better-sqlite3';
import type { Db } from './db.js';
import { SCHEMA_VERSION } from './migrations.js';
import { VtrError } from '../domain/errors.js';
import { columnProblem, rowProblem, TIMESTAMP, TIMESTAMP_PROBLEM } from './state-rules.js';

export const STATE_VERSION = 1;

export type StateRow = Record<string, string | number | null>;

export interface StateDocument {
  vtr_state_version: number;
  exported_at: string;
  schema_version: number;
  tables: Record<string, StateRow[]>;
}

export interface TableInfo {
  name: string;
  /** Column name → declared type. */
  columns: Map<string, string>;
  /** Primary key columns (empty for a rowid table). */
  primaryKey: string[];
  /** ORDER BY clause: primary key columns, or rowid. */
  order: string;
}

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
      throw fault(err) ?? bad(`${where}${constraintProblem(err, name, row as StateRow) ?? `: ${(err as Error).message}`}`);
    }
  };
}

/**
 * SQLite's refusal of a row (`NOT NULL constraint failed: sites.plan`) in the file's terms: the
 * column, and what to change. Null for any other error, which is shown as SQLite words it.
 */
function constraintProblem(err: unknown, table: string, row: StateRow): string | null {
  const m = /^(NOT NULL|UNIQUE) constraint failed: (.+)$/.exec((err as Error).message ?? '');
  if (!m) return null;
  const cols = m[2].split(', ').map((c) => c.slice(c.indexOf('.') + 1));
  if (m[1] === 'NOT NULL') return `.${cols[0]}: must be given (every ${table} row has one; null is not a value here)`;
  const values = cols.map((c) => String(row[c])).join(', ');
  return `.${cols.join(', ')}: ${values} is another row's too: each ${table} row needs its own ${cols.join(' and ')} (a row copied?)`;
}

/** The tables a document names that this vtr does not have: the first is refused. */
export function unknownTable(names: Iterable<string>, known: Map<string, TableInfo>): VtrError | null {
  for (const name of names) {
    if (!known.has(name)) return bad(`tables.${name}: not a table of this vtr (tables: ${[...known.keys()].join(', ')})`);
  }
  return null;
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

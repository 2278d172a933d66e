import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import { VtrError } from '../domain/errors.js';
import { jsonText } from '../domain/json-text.js';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations.js';
import { ensureDirectory, missingFiles, openFailure, refuseSpecialPath, refuseUnwritable, removeCreated, removeDirectories } from './open-check.js';
import { CLI_OPTION_NAMES } from '../domain/option-names.js';

// Our own name for the connection type, so declaration output can refer to it.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Db extends BetterSqlite3.Database {}

// Loaded with require, not import: Node parses a CommonJS package imported from ESM for its export
// names first, which made this one import cost more than opening and migrating the database.
const Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;

export interface OpenDbOptions {
  /** File path, or ':memory:'. */
  path: string;
  /**
   * `normal` (the default): a commit survives a crash of vtr, but the last ones may be lost on a
   * power cut. `full`: every commit is on disk before it is answered, at the cost of an fsync each.
   */
  sync?: SyncMode;
  /** Opens the file read-only (for tests of a database that cannot be written, which root's chmod is not). */
  readOnly?: boolean;
  /** How the one who started vtr names the database file, for what to do when it cannot be used. */
  dbOption?: string;
  /**
   * Filled with the files and directories this open created: a start that fails later takes them
   * back (removeMade), as one failing here does.
   */
  made?: Made;
}

/** What an open created: files that were missing, directories made for them (outermost first). */
export interface Made {
  files: string[];
  dirs: string[];
}

/** Removes what an open created (its database closed first): the files, then the directories left empty. */
export function removeMade(path: string, made: Made): void {
  removeCreated(path, made.files);
  removeDirectories(made.dirs);
}

export type SyncMode = 'normal' | 'full';

/** How long a write waits for another process's write lock before failing. */
export const BUSY_TIMEOUT_MS = 5000;

/**
 * What the WAL file is cut back to whenever it starts over after a checkpoint. Above the 16 MiB at
 * which the checkpoint worker starts it over (checkpointer.ts), so a flood's WAL is reused in place:
 * cut back to 4 MiB each time, the commit that started it over took 5-6 ms (4 times a second in a
 * flood of custom events, p99 16.4-16.8 ms against 12.9-14.1). Below the 64 MiB the server's own
 * autocheckpoint lets it reach, so space freed on a full disk is not all kept by a WAL at its largest.
 */
export const WAL_SIZE_LIMIT = 32 * 1024 * 1024;

/**
 * Opens (creating if needed) the database, applies pending migrations, refuses newer schemas, and
 * refuses a file it cannot write (one write is committed on every open, so a leftover -wal/-shm it
 * cannot use is found now rather than by the first request).
 */
export function openDb({ path, sync = 'normal', readOnly = false, dbOption = CLI_OPTION_NAMES.db, made = { files: [], dirs: [] } }: OpenDbOptions): Db {
  if (path !== ':memory:') refuseSpecialPath(path, dbOption);
  if (path !== ':memory:' && !readOnly) {
    made.dirs.push(...ensureDirectory(path, dbOption));
    try {
      refuseUnwritable(path, dbOption);
    } catch (err) {
      removeMade(path, made);
      throw err;
    }
    made.files.push(...missingFiles(path));
  }
  let db: BetterSqlite3.Database;
  try {
    db = new Database(path, readOnly ? { readonly: true, fileMustExist: true } : {});
  } catch (err) {
    removeMade(path, made);
    throw openFailure(path, err, dbOption, BUSY_TIMEOUT_MS);
  }
  try {
    // Several vtr processes may share one file: wait for a lock rather than fail. First, so that
    // switching a new file to WAL (which needs the file to itself) waits too.
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    refuseForeign(db, path, dbOption); // before WAL: that too would change another program's file
    if (!readOnly) db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${sync === 'full' ? 'FULL' : 'NORMAL'}`);
    db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT}`);
    db.pragma('foreign_keys = ON');
    migrate(db, path, dbOption);
    // The write check: a row written and taken out again, committed (its pages still reach the WAL).
    db.transaction(() => {
      db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('write_check', '')").run();
      db.prepare("DELETE FROM meta WHERE key = 'write_check'").run();
    }).immediate();
  } catch (err) {
    db.close();
    removeMade(path, made);
    throw err instanceof VtrError ? err : openFailure(path, err, dbOption, BUSY_TIMEOUT_MS);
  }
  return db;
}

/**
 * A database vtr never made (`--db` pointed at an app's own file): vtr's has no table before its
 * first migration and always has `meta` after it. Migrating would add vtr's tables to it.
 */
function refuseForeign(db: Db, path: string, dbOption: string): void {
  // One read transaction: another vtr migrating the same new file is seen whole or not at all.
  const { version, tables } = db.transaction(() => ({
    version: db.pragma('user_version', { simple: true }) as number,
    tables: (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as Array<{ name: string }>).map((t) => t.name),
  }))();
  const foreign = version === 0 ? tables.length > 0 : version <= SCHEMA_VERSION && !tables.includes('meta');
  if (!foreign) return;
  const named = tables.slice(0, 5).join(', ') + (tables.length > 5 ? `, … ${tables.length - 5} more` : '');
  throw new VtrError('database_foreign', `${path} is a SQLite database of another program (tables: ${named}); vtr keeps its state in a file of its own: pass another ${dbOption} (a new file is created)`);
}

function migrate(db: Db, path: string, dbOption: string): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > SCHEMA_VERSION) {
    throw new VtrError(
      'schema_too_new',
      `the database ${path} has schema version ${current}, but this vtr understands up to ${SCHEMA_VERSION}; upgrade vtr or use another ${dbOption}`,
    );
  }
  // The version is read again under the write lock: another process opening the same new file at
  // the same moment may have migrated it first.
  for (let done = current >= SCHEMA_VERSION; !done; ) {
    done = db.transaction(() => {
      const v = db.pragma('user_version', { simple: true }) as number;
      if (v >= SCHEMA_VERSION) return true;
      db.exec(MIGRATIONS[v]);
      db.pragma(`user_version = ${v + 1}`);
      return false;
    }).immediate();
  }
}

export const json = {
  parse<T>(text: string | null | undefined, fallback: T): T {
    if (text == null) return fallback;
    try {
      return JSON.parse(text) as T;
    } catch {
      return fallback;
    }
  },
  /** Frozen objects' text is made once (domain/json-text.ts). */
  stringify: jsonText,
};

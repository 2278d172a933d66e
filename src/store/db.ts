import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { VtrError } from '../domain/errors.js';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations.js';

// Our own name for the connection type, so declaration output can refer to it.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Db extends Database.Database {}

export interface OpenDbOptions {
  /** File path, or ':memory:'. */
  path: string;
}

/** How long a write waits for another process's write lock before failing. */
export const BUSY_TIMEOUT_MS = 5000;

/** Opens (creating if needed) the database, applies pending migrations, refuses newer schemas. */
export function openDb({ path }: OpenDbOptions): Db {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  try {
    // Several vtr processes may share one file: wait for a lock rather than fail. First, so that
    // switching a new file to WAL (which needs the file to itself) waits too.
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    migrate(db);
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}

function migrate(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > SCHEMA_VERSION) {
    throw new VtrError(
      'schema_too_new',
      `this database has schema version ${current}, but this vtr understands up to ${SCHEMA_VERSION}; upgrade vtr or use another --db`,
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
  stringify: (value: unknown) => JSON.stringify(value),
};

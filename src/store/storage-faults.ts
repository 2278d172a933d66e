// Storage faults: a write SQLite refused because the disk is full or the database cannot be
// written. They become the contract's 507 `insufficient_storage` / 503 `database_read_only` (naming
// the file and what to do) instead of a 500, and a store-wide state that `/_vtr/health` reports and
// the fault log prints once per fault, not once per request.
import { VtrError } from '../domain/errors.js';
import { statSync } from 'node:fs';
import type Database from 'better-sqlite3';

export type StorageFaultKind = 'full' | 'read_only' | 'corrupt';

export interface StorageFault {
  kind: StorageFaultKind;
  /** SQLite's extended result code, e.g. SQLITE_FULL, SQLITE_READONLY_DBMOVED. */
  sqliteCode: string;
  /** SQLite's own words. */
  cause: string;
  file: string;
}

// What a code means for a write. SQLITE_IOERR_WRITE is what a write() refused with ENOSPC or EFBIG
// (a file size limit) becomes; a read-only filesystem or missing permissions show as READONLY_*,
// CANTOPEN (the -wal/-shm cannot be created) or the IOERR of an open/delete that was refused.
const FULL = new Set(['SQLITE_FULL', 'SQLITE_IOERR_WRITE', 'SQLITE_IOERR_SHMSIZE']);
const READ_ONLY = new Set(['SQLITE_PERM', 'SQLITE_IOERR_SHMOPEN', 'SQLITE_IOERR_DELETE', 'SQLITE_IOERR_DIR_FSYNC']);
// Damage the open did not see (it reads only the first pages): met by the read or write that
// reaches a damaged page, and lasting until the file is replaced.
const CORRUPT = (code: string) => code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB';

/** The kind of storage fault a thrown error is, or null for anything else. */
export function storageFaultKind(error: unknown): StorageFaultKind | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_')) return null;
  if (FULL.has(code)) return 'full';
  if (CORRUPT(code)) return 'corrupt';
  if (READ_ONLY.has(code) || code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_CANTOPEN')) return 'read_only';
  return null;
}

/**
 * SQLite's "database is locked": another process (a long `state import`, another server's flood)
 * held the write lock past the busy timeout. The request was fine; it may be sent again.
 */
export function lockedOut(error: unknown, busyMs: number): VtrError | null {
  if ((error as { code?: unknown } | null)?.code !== 'SQLITE_BUSY') return null;
  const err = new VtrError('database_busy', `the database is locked by another process on the same file (a long state import?) and stayed locked for ${busyMs / 1000} s; try again`);
  err.cause = error; // SQLite's own error: what a start met says it in a start's words (startFailure)
  return err;
}

/**
 * A write whose site, session or webhook is gone: the request read it, then waited for the write
 * lock while another process on the same file (a `vtr state import` or `state reset`, a delete
 * through another server) removed it and committed. Sent again, the request answers 404 as well.
 */
export function removedMeanwhile(error: unknown): VtrError | null {
  if ((error as { code?: unknown } | null)?.code !== 'SQLITE_CONSTRAINT_FOREIGNKEY') return null;
  return new VtrError('not_found', 'what this request refers to (its site, session or webhook) was removed meanwhile by another process on the same database file (a state import or reset, a delete through another vtr serve); nothing was written');
}

/**
 * The fault as the contract's error: the file, the cause, what to do. `standing`: said of the server
 * (`/_vtr/health`, the console), which answers writing requests so, rather than to the request refused.
 */
export function storageFaultError(f: StorageFault, standing = false): VtrError {
  const details = { db: f.file, cause: f.sqliteCode };
  const refused = (status: string, what: string) => (standing ? `Writing requests answer ${status}, with nothing ${what}` : `Nothing of this request was ${what}`);
  if (f.kind === 'full') {
    return new VtrError('insufficient_storage', `the database ${f.file} cannot grow: the disk (or the file's size limit) is full (${f.sqliteCode}). ${refused('507 insufficient_storage', 'written')}; reads still work. Free space on that volume; writes resume by themselves.`, details);
  }
  if (f.kind === 'corrupt') {
    const what = standing ? 'requests that reach its damaged part answer 503 database_corrupt, with nothing kept' : 'what this request needs from it cannot be read or written, and nothing of the request was kept';
    return new VtrError('database_corrupt', `the database ${f.file} is damaged (${f.sqliteCode}: ${f.cause}): ${what}. Stop vtr and serve another --db (a state export loads with --import); \`sqlite3 ${f.file} .recover\` may save the rows that can still be read.`, details);
  }
  if (f.sqliteCode === MOVED) {
    return new VtrError('database_read_only', `the database ${f.file} was removed or replaced while vtr was running (${MOVED}). ${refused('503 database_read_only', 'kept')}. Reads answer from the removed file until vtr stops. Restart vtr to open the file that is there now (or a new one).`, details);
  }
  return new VtrError('database_read_only', `the database ${f.file} cannot be written (${f.sqliteCode}: ${f.cause}). ${refused('503 database_read_only', 'written')}; reads still work. Make the file, its directory and its -wal/-shm files writable by this user (or use another database file), then restart vtr.`, details);
}

/** The code of a database file removed or replaced under the running server (SQLite's own name). */
export const MOVED = 'SQLITE_READONLY_DBMOVED';

/**
 * A check that the file at `path` is still the one the connection opened. In WAL mode SQLite goes on
 * writing to a removed file (or its removed directory) without a word, so every write acknowledged
 * after that would be gone at the next start. A stat per commit (about 1 µs) is the price.
 */
export function fileMoved(path: string): () => Error | null {
  if (path === ':memory:' || path === '') return () => null;
  const id = (): string | null => {
    const st = statSync(path, { throwIfNoEntry: false });
    return st ? `${st.dev}:${st.ino}` : null;
  };
  const opened = id();
  return () => (id() === opened ? null : Object.assign(new Error('the file was removed or replaced while vtr was running'), { code: MOVED }));
}

export interface FaultState {
  /** The fault writes are failing with now, or null while they succeed. */
  current(): (StorageFault & { since: number; failures: number }) | null;
  /** A write failed with this error: the contract's error when it is a storage fault, else null. */
  failed(error: unknown): VtrError | null;
  /** A write committed: the storage works again. */
  succeeded(): void;
  /** Called with the fault when one starts (failures: 1) or repeats, and with null on recovery. */
  listen(fn: (fault: StorageFault | null) => void): () => void;
}

export function createFaultState(file: string, now: () => number = Date.now): FaultState {
  let current: (StorageFault & { since: number; failures: number }) | null = null;
  const listeners = new Set<(fault: StorageFault | null) => void>();
  const tell = (f: StorageFault | null) => {
    for (const fn of listeners) fn(f);
  };
  return {
    current: () => current,
    failed(error) {
      const kind = storageFaultKind(error);
      if (!kind) return null;
      const fault: StorageFault = { kind, sqliteCode: (error as { code: string }).code, cause: (error as Error).message, file };
      if (current && current.kind === kind) current.failures++;
      else current = { ...fault, since: now(), failures: 1 };
      tell(fault);
      const err = storageFaultError(fault);
      err.cause = error; // SQLite's own error: what a start met says it in a start's words (startFailure)
      return err;
    },
    succeeded() {
      // Damage does not heal: a write elsewhere in the file says nothing about it.
      if (!current || current.kind === 'corrupt') return;
      current = null;
      tell(null);
    },
    listen(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
}

type AnyStatement = { readonly: boolean; run: (...a: unknown[]) => unknown; get: (...a: unknown[]) => unknown; all: (...a: unknown[]) => unknown };

/**
 * Makes every writing statement of this connection report to `faults`: a storage fault is thrown
 * as the contract's error, and a committed write outside a transaction clears the fault (inside one,
 * store.tx does after its COMMIT). `wrote()` counts the writes that ran, for that check.
 */
export function guardWrites(
  db: Database.Database,
  faults: FaultState,
  { moved = () => null, busyMs }: { moved?: () => Error | null; busyMs: number },
): { wrote(): number; committed(): void } {
  let writes = 0;
  /** After a commit: a file that is no longer there kept nothing of it; else the storage works (again). */
  const committed = () => {
    const gone = moved();
    if (gone) throw faults.failed(gone) ?? gone;
    if (faults.current()) faults.succeeded();
  };
  const prepare = db.prepare.bind(db);
  (db as { prepare: unknown }).prepare = (source: string) => {
    const stmt = prepare(source) as unknown as AnyStatement;
    if (stmt.readonly) return stmt;
    for (const name of ['run', 'get', 'all'] as const) {
      const call = stmt[name];
      if (typeof call !== 'function') continue;
      stmt[name] = (...args: unknown[]) => {
        let result: unknown;
        try {
          result = call.apply(stmt, args);
        } catch (error) {
          // A single-statement write (a view, a token, a key rotation) waits for the lock as a transaction does.
          throw lockedOut(error, busyMs) ?? removedMeanwhile(error) ?? faults.failed(error) ?? error;
        }
        // A statement that changed nothing proves nothing about the disk.
        const changed = name === 'run' ? (result as { changes: number }).changes > 0 : name === 'all' ? (result as unknown[]).length > 0 : result !== undefined;
        if (changed) {
          writes++;
          if (!db.inTransaction) committed();
        }
        return result;
      };
    }
    return stmt;
  };
  return { wrote: () => writes, committed };
}

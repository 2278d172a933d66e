// The checkpoint worker (see checkpointer.ts): its own connection, PASSIVE checkpoints on a timer;
// it says 'caught-up' when a long WAL has only a small tail left for the server's connection.
import Database from 'better-sqlite3';
import { closeSync, fdatasyncSync, openSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { catchUp, type CatchUpLimits } from './wal-catch-up.js';

const { dbPath, everyMs, limits } = workerData as { dbPath: string; everyMs: number; limits: CatchUpLimits };
const db = new Database(dbPath, { fileMustExist: true });
db.pragma('busy_timeout = 5000');

/**
 * Flushes the database file to disk from this thread. The server's connection syncs it when it
 * copies the tail (synchronous = NORMAL), and that sync then had to write out every page the
 * worker's passes had copied since the last complete checkpoint: under a flood of checks a quarter
 * of the server's copies took 20-106 ms. Synced here first, the server has only the tail's pages to
 * sync: p90 6-14 ms (docs/performance.md, session 10). The WAL is not synced here: the server is
 * appending to it, and each of the worker's passes has synced what it copied already.
 */
function syncDatabaseFile(): void {
  let fd: number | null = null;
  try {
    fd = openSync(dbPath, 'r');
    fdatasyncSync(fd);
  } catch {
    // gone (closing): the server's own sync still covers it
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** One PASSIVE pass; the WAL's length in frames when it began. */
const pass = (): number => (db.pragma('wal_checkpoint(PASSIVE)') as { log: number }[])[0]?.log ?? 0;

let caughtUp: number | null = null;
setInterval(() => {
  try {
    const at = catchUp(pass, limits, caughtUp);
    if (at !== null) {
      caughtUp = at;
      syncDatabaseFile();
      parentPort?.postMessage('caught-up');
    }
  } catch {
    // busy or closing: the next round catches up
  }
}, everyMs);

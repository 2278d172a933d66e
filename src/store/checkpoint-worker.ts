// The checkpoint worker (see checkpointer.ts): its own connection, PASSIVE checkpoints on a timer;
// it says 'caught-up' when a long WAL has only a small tail left for the server's connection.
import Database from 'better-sqlite3';
import { closeSync, fdatasyncSync, openSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { catchUp, type CatchUpLimits } from './wal-catch-up.js';

const { dbPath, everyMs, busyEveryMs, limits } = workerData as { dbPath: string; everyMs: number; busyEveryMs: number; limits: CatchUpLimits };
const db = new Database(dbPath, { fileMustExist: true });
db.pragma('busy_timeout = 5000');

let lastLog = 0;
/** One PASSIVE pass; the WAL's length in frames when it began. */
const pass = (): number => (lastLog = (db.pragma('wal_checkpoint(PASSIVE)') as { log: number }[])[0]?.log ?? 0);

/**
 * Flushes the database file and the WAL to disk from this thread, before the hand-over. SQLite
 * syncs the database file only when a checkpoint copies the whole WAL, which under a flood only the
 * server's tail copy does; so that copy's sync had to write out every page this worker's passes had
 * copied: up to 48 ms on the server thread. Flushed here first, the server's syncs (the WAL, the
 * file, and the WAL's header when it starts over) have only the tail left: 35-54 ms of them in a
 * 6 s flood of checks, at most one over 5 ms, against 66-134 ms with one to five over
 * (docs/performance.md). Safe at any moment: it only writes out what is in the page
 * cache already.
 */
function flushToDisk(): void {
  for (const file of [dbPath, `${dbPath}-wal`]) {
    let fd: number | null = null;
    try {
      fd = openSync(file, 'r');
      fdatasyncSync(fd);
    } catch {
      // gone (closing): the server's own syncs still cover it
    } finally {
      if (fd !== null) closeSync(fd);
    }
  }
}

let caughtUp: number | null = null;
// While writes come, passes come often: each copies a little, so on a small machine the worker
// takes the server's core for a moment at a time, not for one long copy (under a flood of checks on
// 2 cores, the server's event loop stalled 60-85 ms every half second with a pass every 250 ms,
// at most 22-31 ms with one every 50 ms). Once the WAL stops changing, a few passes a second.
function round(): void {
  const before = lastLog;
  try {
    const at = catchUp(pass, limits, caughtUp);
    if (at !== null) {
      caughtUp = at;
      flushToDisk();
      parentPort?.postMessage('caught-up');
    }
  } catch {
    // busy or closing: the next round catches up
  }
  setTimeout(round, lastLog !== before ? busyEveryMs : everyMs);
}
setTimeout(round, everyMs);

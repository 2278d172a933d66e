// The checkpoint worker (see checkpointer.ts): its own connection, PASSIVE checkpoints on a timer;
// it says 'caught-up' when a long WAL has only a small tail left for the server's connection.
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { catchUp, type CatchUpLimits } from './wal-catch-up.js';

const { dbPath, everyMs, limits } = workerData as { dbPath: string; everyMs: number; limits: CatchUpLimits };
const db = new Database(dbPath, { fileMustExist: true });
db.pragma('busy_timeout = 5000');

/** One PASSIVE pass; the WAL's length in frames when it began. */
const pass = (): number => (db.pragma('wal_checkpoint(PASSIVE)') as { log: number }[])[0]?.log ?? 0;

let caughtUp: number | null = null;
setInterval(() => {
  try {
    const at = catchUp(pass, limits, caughtUp);
    if (at !== null) {
      caughtUp = at;
      parentPort?.postMessage('caught-up');
    }
  } catch {
    // busy or closing: the next round catches up
  }
}, everyMs);

// The checkpoint worker (see checkpointer.ts): its own connection, PASSIVE checkpoints on a timer.
import Database from 'better-sqlite3';
import { workerData } from 'node:worker_threads';

const { dbPath, everyMs } = workerData as { dbPath: string; everyMs: number };
const db = new Database(dbPath, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // busy or closing: the next round catches up
  }
}, everyMs);

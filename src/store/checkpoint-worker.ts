// The checkpoint worker (see checkpointer.ts): its own connection, PASSIVE checkpoints on a timer.
// After a pass that copied a long WAL as far as it saw (writes keep coming meanwhile), it tells the server
// thread, whose own checkpoint then copies only the rest and lets the WAL start over.
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

const { dbPath, everyMs, restartPages } = workerData as { dbPath: string; everyMs: number; restartPages: number };
const db = new Database(dbPath, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
setInterval(() => {
  try {
    const [r] = db.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
    // Copied as far as this pass saw; what came in meanwhile is for the server thread (see checkpointer.ts).
    if (r && r.log >= restartPages && r.checkpointed === r.log) parentPort?.postMessage({ log: r.log });
  } catch {
    // busy or closing: the next round catches up
  }
}, everyMs);

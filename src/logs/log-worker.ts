// The request-log worker (see log-sink.ts): its own connection to the database file; writes the
// batches the server thread sends, in order, and acknowledges each; and checkpoints the WAL, which
// the server thread's connection no longer does.
import { parentPort, workerData } from 'node:worker_threads';
import { createStore } from '../store/index.js';
import { createRowWriter } from './log-sink.js';
import type { RequestLogEntry } from '../store/request-log.js';

const { dbPath, keep } = workerData as { dbPath: string; keep: number };
const store = createStore({ path: dbPath });
const writeRows = createRowWriter(store, keep);

const CHECKPOINT_EVERY_MS = 250;
// PASSIVE: copies what no reader still needs, never waits for or blocks a writer.
setInterval(() => {
  try {
    store.db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // busy or closing: the next round catches up
  }
}, CHECKPOINT_EVERY_MS).unref();

parentPort!.on('message', ({ id, rows }: { id: number; rows: RequestLogEntry[] }) => {
  let error: string | undefined;
  try {
    writeRows(rows);
  } catch (err) {
    error = (err as Error).message;
  }
  parentPort!.postMessage({ ack: id, error });
});

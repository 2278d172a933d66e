// Where built request-log rows go: straight into the database on this thread, or to a worker
// thread with its own connection to the same file (log-worker.ts), so the insert and pruning (most
// of what logging a request costs) run beside the server instead of between its requests.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Store } from '../store/index.js';
import type { RequestLogEntry } from '../store/request-log.js';

export interface LogSink {
  write(rows: RequestLogEntry[]): void;
  /** Resolves once everything written so far is in the database. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

/** Rows kept: the newest 10,000. */
export const DEFAULT_KEEP = 10_000;
// Small steps: a prune holds the write lock too.
const PRUNE_EVERY = 256;

// Rows per transaction. The worker's connection holds the write lock while it inserts, and a
// request's commit that meets the lock sleeps at least 1 ms: short transactions keep that rare.
const ROWS_PER_TX = 32;

/** Inserts a batch and, every PRUNE_EVERY rows, drops all but the newest `keep`. */
export function createRowWriter(store: Store, keep: number) {
  let sincePrune = 0;
  return (rows: RequestLogEntry[]): void => {
    for (let i = 0; i < rows.length; i += ROWS_PER_TX) store.requestLog.insertMany(rows.length <= ROWS_PER_TX ? rows : rows.slice(i, i + ROWS_PER_TX));
    sincePrune += rows.length;
    if (sincePrune >= PRUNE_EVERY) {
      sincePrune = 0;
      store.requestLog.prune(keep);
    }
  };
}

const warn = (err: unknown) => console.error('vtr: could not write the request log:', (err as Error)?.message ?? err);

export function inlineSink(store: Store, keep = DEFAULT_KEEP): LogSink {
  const writeRows = createRowWriter(store, keep);
  return {
    write(rows) {
      if (!store.db.open) return;
      try {
        writeRows(rows);
      } catch (err) {
        // The log is diagnostics: a failed write never fails a request.
        warn(err);
      }
    },
    settled: async () => {},
    close: async () => {},
  };
}

/** The built worker beside this module (dist/log-worker.js), or null when running from sources. */
export function logWorkerFile(): string | null {
  const file = fileURLToPath(new URL('./log-worker.js', import.meta.url));
  return existsSync(file) ? file : null;
}

/**
 * A worker-thread sink for the store's database file. The worker also takes over WAL checkpoints
 * (copying the log back into the database, which otherwise runs inside whichever request's commit
 * crosses 1000 pages). If the worker cannot start or dies, what it had not written and everything
 * after goes to `fallback` (this thread), with one warning, and checkpoints return to this thread.
 */
export function workerSink(file: string, store: Store, fallback: LogSink, keep = DEFAULT_KEEP): LogSink {
  let worker: Worker | null = new Worker(file, { workerData: { dbPath: store.path, keep } });
  worker.unref(); // never what keeps the process alive
  store.db.pragma('wal_autocheckpoint = 0');
  let nextId = 0;
  const inFlight = new Map<number, RequestLogEntry[]>();
  let waiters: Array<() => void> = [];
  const wake = () => {
    if (inFlight.size > 0) return;
    const w = waiters;
    waiters = [];
    for (const fn of w) fn();
  };
  const abandon = (err: unknown) => {
    if (!worker) return;
    warn(err);
    worker = null;
    if (store.db.open) store.db.pragma('wal_autocheckpoint = 1000');
    for (const rows of inFlight.values()) fallback.write(rows);
    inFlight.clear();
    wake();
  };
  worker.on('message', (m: { ack?: number; error?: string }) => {
    if (m.error) warn(m.error);
    if (m.ack !== undefined) inFlight.delete(m.ack);
    wake();
  });
  worker.on('error', abandon);
  worker.on('exit', (code) => abandon(`the request-log worker stopped (exit ${code})`));

  return {
    write(rows) {
      if (!worker) return fallback.write(rows);
      const id = nextId++;
      inFlight.set(id, rows);
      worker.postMessage({ id, rows });
    },
    settled: () => (inFlight.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve))),
    async close() {
      await this.settled();
      const w = worker;
      worker = null;
      if (w) await w.terminate();
      if (store.db.open) store.db.pragma('wal_autocheckpoint = 1000');
    },
  };
}

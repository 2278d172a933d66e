// WAL checkpoints, mostly on a worker thread. SQLite copies the write-ahead log back into the
// database inside whichever commit crosses 1000 pages (4 MiB), which stalls that request and every
// request queued behind it for several milliseconds. The worker, with its own connection, runs
// PASSIVE checkpoints (they neither wait for nor block writers) a few times a second, so the copying
// happens beside the server. Under a steady stream of writes no worker pass finishes (frames keep
// arriving while it copies), and the WAL only starts over (stops growing) after a checkpoint that
// copied every frame. So when a pass leaves a long WAL (RESTART_PAGES) nearly copied, the worker
// says so and the server thread checkpoints between two requests: it copies only what came in during
// the pass, a few milliseconds, where the 64 MiB autocheckpoint stalled it ~40-50 ms about once a
// second under a flood of visitor checks. That autocheckpoint stays as the safety net. If the worker
// cannot start or dies, the server's connection goes back to SQLite's default.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Db } from './db.js';

export const CHECKPOINT_EVERY_MS = 250;
const AUTO_PAGES = 1000; // SQLite's default
const SERVER_PAGES = 16_000; // 64 MiB (measured: at 16 MiB a visitor-check load stalled often enough to double p99)
const WAL_SIZE_LIMIT = 64 * 1024 * 1024;
const RESTART_PAGES = 4_000; // 16 MiB: the WAL starts over about this often under sustained writes

/** The built worker beside this module (dist/checkpoint-worker.js), or null when running from sources. */
export function checkpointWorkerFile(): string | null {
  const file = fileURLToPath(new URL('./checkpoint-worker.js', import.meta.url));
  return existsSync(file) ? file : null;
}

export function startCheckpointer(db: Db, dbPath: string, file: string): { stop(): Promise<void> } {
  let worker: Worker | null = new Worker(file, { workerData: { dbPath, everyMs: CHECKPOINT_EVERY_MS, restartPages: RESTART_PAGES } });
  worker.unref(); // never what keeps the process alive
  // A message handler runs between event-loop tasks, so never inside one of this thread's
  // transactions; the check is for a transaction left open across turns (none is, today).
  worker.on('message', () => {
    if (!db.open || db.inTransaction) return;
    try {
      db.pragma('wal_checkpoint(PASSIVE)');
    } catch {
      // busy (another process): the autocheckpoint or the next pass catches up
    }
  });
  db.pragma(`wal_autocheckpoint = ${SERVER_PAGES}`);
  // When the WAL starts over, cut its file back to this (it would otherwise keep its largest size).
  db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT}`);
  const fallBack = (why: unknown) => {
    if (!worker) return;
    worker = null;
    console.error('vtr: WAL checkpoints are back on the server thread:', (why as Error)?.message ?? why);
    if (db.open) db.pragma(`wal_autocheckpoint = ${AUTO_PAGES}`);
  };
  worker.on('error', fallBack);
  worker.on('exit', (code) => fallBack(`the checkpoint worker stopped (exit ${code})`));
  return {
    async stop() {
      const w = worker;
      worker = null;
      if (w) await w.terminate();
      if (db.open) db.pragma(`wal_autocheckpoint = ${AUTO_PAGES}`);
    },
  };
}

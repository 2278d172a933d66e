// WAL checkpoints, mostly on a worker thread. SQLite copies the write-ahead log back into the
// database inside whichever commit crosses 1000 pages (4 MiB), which stalls that request and every
// request queued behind it for several milliseconds. The worker, with its own connection, runs
// PASSIVE checkpoints (they neither wait for nor block writers) a few times a second, every 50 ms
// while writes come, so the copying and its fsyncs happen beside the server.
// The WAL only starts over (and stops growing) when a write begins with all of it copied, which
// under a flood of writes never happens to the worker's passes: frames keep arriving. So once the
// WAL is long, the worker repeats its pass until what arrived during the last one is a small tail,
// flushes the database file and the WAL to disk (the tail copy's syncs would otherwise write out
// all its passes had copied), and tells the server's connection, which copies that tail itself: its
// syncs under 5 ms under a flood of checks, where its own 64 MiB autocheckpoint, still the backstop,
// stalled 40-70 ms. If the worker cannot start or dies, the server's connection goes back to
// SQLite's default.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Db } from './db.js';
import type { CatchUpLimits } from './wal-catch-up.js';

export const CHECKPOINT_EVERY_MS = 250;
/** While the WAL grows (see checkpoint-worker.ts). */
const BUSY_EVERY_MS = 50;
const AUTO_PAGES = 1000; // SQLite's default
const SERVER_PAGES = 16_000; // 64 MiB (measured: at 16 MiB a visitor-check load stalled often enough to double p99)
// A WAL of 16 MiB is caught up and started over; the server's connection copies at most ~256 KiB,
// or past 32 MiB what the worker's last pass let through (a few MiB, where the 64 MiB autocheckpoint
// stalled 40-80 ms: measured under a check flood with the worker short of CPU).
const LIMITS: CatchUpLimits = { restartPages: 4_096, tailPages: 64, maxPasses: 4, forcePages: 8_192 };

/** The built worker beside this module (dist/checkpoint-worker.js), or null when running from sources. */
export function checkpointWorkerFile(): string | null {
  const file = fileURLToPath(new URL('./checkpoint-worker.js', import.meta.url));
  return existsSync(file) ? file : null;
}

export function startCheckpointer(db: Db, dbPath: string, file: string): { stop(): Promise<void> } {
  let worker: Worker | null = new Worker(file, {
    workerData: { dbPath, everyMs: CHECKPOINT_EVERY_MS, busyEveryMs: BUSY_EVERY_MS, limits: LIMITS },
    // The process's options, less the one a worker refuses: a script run with
    // `node --input-type=module -e` would otherwise get no worker.
    execArgv: process.execArgv.filter((a, i, all) => !a.startsWith('--input-type') && all[i - 1] !== '--input-type'),
  });
  db.pragma(`wal_autocheckpoint = ${SERVER_PAGES}`);
  // When the WAL starts over (the server's connection is the one that writes, so the one that
  // starts it over), openDb's journal_size_limit cuts its file back to WAL_SIZE_LIMIT.
  const fallBack = (why: unknown) => {
    if (!worker) return;
    worker = null;
    console.error('vtr: WAL checkpoints are back on the server thread:', (why as Error)?.message ?? why);
    if (db.open) db.pragma(`wal_autocheckpoint = ${AUTO_PAGES}`);
  };
  worker.on('message', () => {
    // The worker caught up: copy the tail, so the next write starts the WAL over. Messages arrive
    // between event-loop tasks, never inside a transaction; a busy database waits for next time.
    try {
      if (db.open) db.pragma('wal_checkpoint(PASSIVE)');
    } catch {
      // the next catch-up tries again
    }
  });
  worker.on('error', fallBack);
  worker.on('exit', (code) => fallBack(`the checkpoint worker stopped (exit ${code})`));
  // Never what keeps the process alive. After the listeners: adding a 'message' one refs the
  // worker's port again, so an emulator without a port that is never closed would hold the process.
  worker.unref();
  return {
    async stop() {
      const w = worker;
      worker = null;
      if (w) await w.terminate();
      if (db.open) db.pragma(`wal_autocheckpoint = ${AUTO_PAGES}`);
    },
  };
}

// Loaded into `vtr serve` with --import by `bench/run.mjs --stalls`: notes each time the server's
// event loop was held up, as a 2 ms interval timer firing late, in $VTR_BENCH_STALLS_DIR/<pid>.txt
// ("<epoch ms> <lag ms>" a line; lags over STALL_MS only). The bench matches them to its runs.
// The timer runs only between two SIGUSR2 (the bench sends one before and one after each of the
// emulator's runs): waking every 2 ms while idle, it slowed the bare server's runs by a quarter.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';

const STALL_MS = 10;
const EVERY_MS = 2;
const dir = process.env.VTR_BENCH_STALLS_DIR;

// The checkpoint worker loads this too: only the thread that answers requests counts.
if (dir && isMainThread) {
  const file = join(dir, `${process.pid}.txt`);
  const lines = [];
  let timer = null;
  let last = 0;
  const tick = () => {
    const now = performance.now();
    const lag = now - last - EVERY_MS;
    if (lag > STALL_MS) lines.push(`${Math.round(performance.timeOrigin + now)} ${lag.toFixed(1)}`);
    last = now;
  };
  process.on('SIGUSR2', () => {
    if (timer) {
      clearInterval(timer);
      timer = null;
      if (lines.length) appendFileSync(file, `${lines.splice(0).join('\n')}\n`);
      return;
    }
    last = performance.now();
    timer = setInterval(tick, EVERY_MS);
    timer.unref();
  });
}

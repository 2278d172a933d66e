// `--stalls`: how often the emulator's event loop was held up during each run (stall-probe.mjs,
// loaded into `vtr serve`), and for how long at worst. A stall holds up every request in flight,
// so this is where a p99 comes from that the CPU figures do not show.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { config } from './config.mjs';
import { log, median, round, table } from './util.mjs';

const dir = join(config.tmp, 'stalls');

/** Node arguments that load the probe into `vtr serve` (it writes to `dir`, named by its pid). */
export function stallProbeArgs() {
  mkdirSync(dir, { recursive: true });
  process.env.VTR_BENCH_STALLS_DIR = dir;
  return ['--import', pathToFileURL(join(import.meta.dirname, 'stall-probe.mjs')).href];
}

/** Adds to each case the stalls seen inside each emulator run's window ([from, to] epoch ms). */
export function addStalls(out, pid) {
  const file = join(dir, `${pid}.txt`);
  const stalls = existsSync(file)
    ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((l) => l.split(' ').map(Number))
    : [];
  for (const c of Object.values(out.cases)) {
    const runs = c.rounds.map((r) => {
      const [from, to] = r.sides[0].window;
      const inside = stalls.filter(([at]) => at >= from && at <= to).map(([, lag]) => lag);
      return { count: inside.length, worst_ms: inside.length ? Math.max(...inside) : 0, seconds: (to - from) / 1000 };
    });
    c.stalls = { runs, per_second: round(median(runs.map((r) => r.count / r.seconds)), 1), worst_ms: round(Math.max(...runs.map((r) => r.worst_ms)), 1) };
  }
}

export function printStalls(out) {
  log('\nevent-loop stalls of the emulator (--stalls): a 2 ms timer firing over 10 ms late, inside each run');
  table(
    Object.values(out.cases).map((c) => [c.label, `${c.stalls.per_second}`, `${c.stalls.worst_ms} ms`, c.stalls.runs.map((r) => `${r.count} (${round(r.worst_ms, 0)} ms)`).join(', ')]),
    ['route', 'stalls a second (median)', 'worst', 'per run: count (worst)'],
  );
}

// The bench's options, from the command line (see bench/README.md), and its temp directory.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BENCH_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const flag = (name) => argv.includes(`--${name}`);
const opt = (name, fallback) => {
  const hit = argv.findLast((a) => a.startsWith(`--${name}=`));
  return hit === undefined ? fallback : hit.slice(name.length + 3);
};
const all = (name) => argv.filter((a) => a.startsWith(`--${name}=`)).map((a) => a.slice(name.length + 3));
const int = (name, fallback, min = 1) => {
  const v = Number(opt(name, fallback));
  if (!Number.isInteger(v) || v < min) {
    process.stderr.write(`--${name}: expected a whole number of at least ${min}, got ${opt(name)}\n`);
    process.exit(2);
  }
  return v;
};

const KNOWN = ['quick', 'only', 'root', 'duration', 'rounds', 'connections', 'wrk-threads', 'serve-arg', 'scale', 'scale-count', 'cli-runs', 'webhook-sessions', 'cases', 'out', 'profile', 'stalls', 'floor', 'floor-work', 'no-mock'];
for (const a of argv) {
  const name = a.replace(/^--/, '').split('=')[0];
  if (!a.startsWith('--') || !KNOWN.includes(name)) {
    process.stderr.write(`unknown argument ${a}; options: ${KNOWN.map((k) => `--${k}`).join(' ')} (see bench/README.md)\n`);
    process.exit(2);
  }
}

const QUICK = flag('quick');
/** The checkout whose build is measured: its dist/cli.js and its package (`import('vtr')`). */
const ROOT = resolve(opt('root', resolve(BENCH_DIR, '..')));

export const config = {
  quick: QUICK,
  root: ROOT,
  cli: join(ROOT, 'dist', 'cli.js'),
  // 'cli' is the start-up section's former name.
  only: opt('only', 'http,startup,webhooks' + (flag('scale') ? ',scale' : '')).split(',').map((s) => (s === 'cli' ? 'startup' : s)),
  /** HTTP cases to run: get, session_event, check, check_varied (default all). */
  cases: opt('cases', 'get,session_event,check,check_varied').split(','),
  duration: int('duration', QUICK ? 3 : 8),
  rounds: int('rounds', QUICK ? 2 : 4),
  connections: int('connections', 50),
  wrkThreads: int('wrk-threads', 1),
  /** Extra `vtr serve` arguments: measured as a second emulator, its own row per route. */
  serveArgs: all('serve-arg'),
  scaleCount: int('scale-count', QUICK ? 5_000 : 1_000_000),
  cliRuns: int('cli-runs', QUICK ? 5 : 15),
  webhookSessions: int('webhook-sessions', QUICK ? 100 : 1_000),
  sessionsForHttp: QUICK ? 100 : 1_000,
  profile: flag('profile'),
  /** Log the emulator's event-loop stalls during each run (bench/lib/stall-probe.mjs). */
  stalls: flag('stalls'),
  /** Also measure bench/hono-floor.mjs, the framework alone, in the same rounds. */
  floor: flag('floor') || opt('floor-work') !== undefined,
  /**
   * With --floor-work=N, a second floor whose handlers each spin N µs of CPU: what N µs of a
   * route's own work costs in a flood, the kernel's share included (0: none).
   */
  floorWork: int('floor-work', 0, 0),
  /** Also measure json-server (bench/mock-server.mjs), a generic mock server, in the same rounds. */
  mock: !flag('no-mock'),
  /** Where to write the results JSON (default bench/results/<timestamp>.json). */
  out: opt('out', null),
  tmp: mkdtempSync(join(tmpdir(), 'vtr-bench-')),
};

export const TARGETS = { get: 0.7, session_event: 0.5, check: 0.5, check_varied: 0.5, p99_ms: 10, cli_version: 1.5, import_vtr: 2.5 };
/** A bare server below this many cores of CPU was not saturated: its run gives no ratio. */
export const SATURATED_CORES = 0.9;

export function assertBuilt() {
  if (!existsSync(config.cli)) {
    process.stderr.write(`${config.cli} does not exist: run \`npm run build\` (or pass --root=<a built checkout>)\n`);
    process.exit(1);
  }
}

#!/usr/bin/env node
// What a test file pays to get an emulator: in a fresh process, `import('vtr')`, the first
// `startEmulator()` (memory database, port 0), a second one, `close()`, and the first start with
// `listen: false`. Each run is a new node process; with several roots (built checkouts) the runs
// alternate root by root, so a load spike hits each alike. Medians, min–max.
//
//   node bench/startup-emulator.mjs [--runs=N] [--root=<built checkout> ...] [--json]
//
// Each root needs package.json, dist/ and node_modules/ (`import('vtr')` resolves to its package).
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

/** Runs in the child: one line of JSON with each phase in milliseconds. */
export const EMULATOR_TIMING = `
const listen = process.env.VTR_BENCH_LISTEN !== '0';
const t0 = performance.now();
const { startEmulator } = await import('vtr');
const t1 = performance.now();
const c1 = process.cpuUsage();
const emu = await startEmulator(listen ? {} : { listen: false });
const t2 = performance.now();
const c2 = process.cpuUsage(c1);
await emu.close();
const t3 = performance.now();
const again = await startEmulator(listen ? {} : { listen: false });
const t4 = performance.now();
await again.close();
console.log(JSON.stringify({ import_ms: t1 - t0, start_ms: t2 - t1, start_cpu_ms: (c2.user + c2.system) / 1000, close_ms: t3 - t2, second_start_ms: t4 - t3 }));`;

/** One fresh process timing the phases above in `root` (listen: false when `listen` is false). */
export function timeEmulator(root, listen = true) {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', EMULATOR_TIMING], {
    cwd: root,
    env: { ...process.env, VTR_BENCH_LISTEN: listen ? '1' : '0' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (r.status !== 0) throw new Error(`startEmulator() timing failed in ${root}: ${(r.stderr || r.stdout).slice(0, 500)}`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1));
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (xs) => `${median(xs).toFixed(1)} (${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)})`;

async function main() {
  const args = process.argv.slice(2);
  const runs = Number(args.find((a) => a.startsWith('--runs='))?.slice(7) ?? 10);
  const roots = args.filter((a) => a.startsWith('--root=')).map((a) => resolve(a.slice(7)));
  if (!roots.length) roots.push(resolve(import.meta.dirname, '..'));
  const results = roots.map(() => ({ listen: [], noListen: [] }));
  for (const [i, root] of roots.entries()) timeEmulator(root); // warms the file cache, and shows it works
  for (let n = 0; n < runs; n++) {
    // Flip the order every run, so neither root always follows the other.
    const order = n % 2 ? [...roots.keys()].reverse() : [...roots.keys()];
    for (const i of order) {
      results[i].listen.push(timeEmulator(roots[i], true));
      results[i].noListen.push(timeEmulator(roots[i], false));
    }
  }
  if (args.includes('--json')) {
    process.stdout.write(`${JSON.stringify(roots.map((root, i) => ({ root, ...results[i] })))}\n`);
    return;
  }
  for (const [i, root] of roots.entries()) {
    const { listen, noListen } = results[i];
    const col = (rs, key) => fmt(rs.map((r) => r[key]));
    process.stdout.write(`${root} — median (min–max) of ${runs} fresh processes, ms\n`);
    process.stdout.write(`  import('vtr')                    ${col(listen, 'import_ms')}\n`);
    process.stdout.write(`  first startEmulator()            ${col(listen, 'start_ms')}\n`);
    process.stdout.write(`  first startEmulator(), CPU       ${col(listen, 'start_cpu_ms')}\n`);
    process.stdout.write(`  first, { listen: false }         ${col(noListen, 'start_ms')}\n`);
    process.stdout.write(`  second startEmulator()           ${col(listen, 'second_start_ms')}\n`);
    process.stdout.write(`  close() (first)                  ${col(listen, 'close_ms')}\n`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();

// Start-up costs a user feels: the CLI (`vtr --version` and friends against `node -e 0`), the
// library's import (`import('vtr')` against `node -e 0`) and `startEmulator()` in-process.
// Commands are interleaved run by run, so a load spike hits every command alike; medians reported.
import { spawnSync } from 'node:child_process';
import { TARGETS, config } from './config.mjs';
import { createSessions, startServe } from './procs.mjs';
import { timeEmulator } from '../startup-emulator.mjs';
import { log, median, round, table } from './util.mjs';

function timeRun(args, env, cwd) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { env, cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, status: r.status, stderr: r.stderr, stdout: r.stdout };
}

export async function benchStartup() {
  log('\n## Start-up');
  log(`median of ${config.cliRuns} runs each, interleaved; whole processes unless marked in-process; commands that talk to a server use a running emulator\n`);
  const emu = await startServe('startup');
  await createSessions(emu, 5);
  const env = { ...process.env, VTR_BASE_URL: emu.baseUrl, CI: '1', NO_COLOR: '1' };
  const cli = config.cli;
  const cmds = [
    { key: 'node', label: 'node -e 0 (baseline)', args: ['-e', '0'] },
    { key: 'import_vtr', label: "node -e \"import('vtr')\"", args: ['--input-type=module', '-e', "await import('vtr')"], target: TARGETS.import_vtr },
    { key: 'version', label: 'vtr --version', args: [cli, '--version'], target: TARGETS.cli_version },
    { key: 'help', label: 'vtr --help', args: [cli, '--help'] },
    { key: 'sessions_list', label: 'vtr sessions list --limit 1', args: [cli, 'sessions', 'list', '--limit', '1'] },
    { key: 'check', label: 'vtr check --ip 192.0.2.1', args: [cli, 'check', '--ip', '192.0.2.1'] },
  ];
  for (const c of cmds) {
    const r = timeRun(c.args, env, config.root); // warms the file cache, and shows it works
    c.available = r.status === 0;
    if (!c.available) c.reason = `exit ${r.status}: ${(r.stderr || r.stdout).trim().split('\n')[0]?.slice(0, 160)}`;
    c.times = [];
  }
  const inproc = [];
  const inprocNoListen = [];
  for (let i = 0; i < config.cliRuns; i++) {
    for (const c of cmds) if (c.available) c.times.push(timeRun(c.args, env, config.root).ms);
    // In a child with the measured checkout as cwd, so `import('vtr')` resolves to its package.
    inproc.push(timeEmulator(config.root, true));
    inprocNoListen.push(timeEmulator(config.root, false));
  }
  await emu.stop();

  const base = median(cmds[0].times);
  const out = {};
  const rows = [];
  for (const c of cmds) {
    if (!c.available) {
      out[c.key] = { available: false, reason: c.reason };
      rows.push([c.label, 'not available', '', '', c.reason]);
      continue;
    }
    const m = median(c.times);
    // Each run's ratio to the node -e 0 run next to it: the spread of these is the noise.
    const ratios = c.times.map((t, i) => round(t / cmds[0].times[i], 2));
    out[c.key] = { median_ms: round(m, 1), min_ms: round(Math.min(...c.times), 1), max_ms: round(Math.max(...c.times), 1), ratio: round(m / base, 2), target_ratio: c.target ?? null, times_ms: c.times.map((t) => round(t, 1)), ratios };
    const ratio = c.key === 'node' ? '1.00' : `${(m / base).toFixed(2)}${c.target ? (m / base <= c.target ? ' ✓' : ' ✗') : ''}`;
    rows.push([c.label, `${m.toFixed(1)} ms`, `${Math.min(...c.times).toFixed(1)}–${Math.max(...c.times).toFixed(1)} ms`, ratio, c.target ? `≤ ${c.target}` : '']);
  }
  for (const [key, label, runs = inproc, outKey = key] of [
    ['import_ms', "import('vtr'), in-process"],
    ['start_ms', 'startEmulator() (first, in-process)'],
    ['start_cpu_ms', 'startEmulator() (first), CPU time'],
    ['start_ms', 'startEmulator({ listen: false }) (first)', inprocNoListen, 'start_no_listen_ms'],
    ['second_start_ms', 'startEmulator() (second in the same process)'],
    ['close_ms', 'emulator.close()'],
  ]) {
    const xs = runs.map((x) => x[key]);
    out[`inproc_${outKey}`] = { median_ms: round(median(xs), 1), min_ms: round(Math.min(...xs), 1), max_ms: round(Math.max(...xs), 1), times_ms: xs.map((x) => round(x, 1)) };
    const mark = outKey === 'start_ms' ? (median(xs) < 100 ? ' ✓' : ' ✗') : '';
    rows.push([label, `${median(xs).toFixed(1)} ms${mark}`, `${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)} ms`, '', outKey === 'start_ms' ? 'tens of ms (< 100)' : '']);
  }
  table(rows, ['command', 'median', 'range', 'ratio to node', 'target']);
  return out;
}

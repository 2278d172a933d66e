#!/usr/bin/env node
// `npm run bench`: the figures behind contract section 10, each as a ratio to a bare baseline
// measured in the same run (absolute numbers move with the machine; ratios much less).
//
//   node bench/run.mjs [--quick] [--only=http,cli,scale,webhooks] [--profile]
//
// Env: VTR_CLI (the built CLI, default dist/cli.js), BENCH_DURATION (seconds per HTTP run, default
// 5, --quick 2), BENCH_CONNECTIONS (default 50), BENCH_SCALE_COUNT (sessions for the scale section,
// default 1,000,000, --quick 5,000), BENCH_CLI_RUNS (runs per CLI command, default 15, --quick 5),
// BENCH_WEBHOOK_SESSIONS (default 1,000, --quick 100), BENCH_ROUNDS (alternating bare/vtr rounds
// per HTTP case, default 3, --quick 1), BENCH_HTTP_CASES (e.g. "get": only those
// HTTP cases; with --profile, a profile of just that route).
//
// HTTP cases: get, session_event, check (POST /api/v1/event, one fixed full body), headroom (the bare
// server spinning a fixed 10/25/50 µs per request: what that much route work allows here) and check_unique
// (the same route and body shape, but every request's body different: a counter in the email, phone,
// address and name, so nothing keyed on the body can be reused). Each HTTP run also records the
// server process's CPU time (utime+stime from /proc/<pid>/stat, Linux only) per completed request,
// `cpu_us_per_req`: with the load generator on the same (small) machine, the throughput ratio is
// bounded by autocannon, while CPU per request shows the server's own cost.
//
// Writes a table to stdout and every figure to bench/results/<timestamp>.json.
// See docs/performance.md for what each section measures and the latest figures.
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem, platform, release } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..');
const argv = process.argv.slice(2);
const QUICK = argv.includes('--quick');
const PROFILE = argv.includes('--profile') || !!process.env.BENCH_PROFILE;
const ONLY = (argv.find((a) => a.startsWith('--only='))?.slice(7) ?? 'http,cli,scale,webhooks').split(',');
const CLI = resolve(process.env.VTR_CLI ?? join(ROOT, 'dist/cli.js'));
const num = (name, dflt) => (process.env[name] ? Number(process.env[name]) : dflt);
const DURATION = num('BENCH_DURATION', QUICK ? 2 : 5);
const CONNECTIONS = num('BENCH_CONNECTIONS', 50);
const SCALE_COUNT = num('BENCH_SCALE_COUNT', QUICK ? 5_000 : 1_000_000);
const FALLBACK_SCALE_CAP = QUICK ? 2_000 : 20_000;
const CLI_RUNS = num('BENCH_CLI_RUNS', QUICK ? 5 : 15);
const WEBHOOK_SESSIONS = num('BENCH_WEBHOOK_SESSIONS', QUICK ? 100 : 1_000);
const SESSIONS_FOR_HTTP = QUICK ? 100 : 1000; // events spread over many sessions, so none grows huge
// HTTP runs alternate bare/vtr over several rounds (ABBA): a load spike from elsewhere on the machine
// then hits both sides, and the ratio is the median of the per-round ratios.
const ROUNDS = num('BENCH_ROUNDS', QUICK ? 1 : 3);

const SCALE_GET_IDS = 100_000;
/** The pause after each HTTP run (see `settled`). */
const SETTLE_MS = 500;
/** Route work (µs of CPU per request) the headroom calibration adds to the bare server. */
const HEADROOM_WORK_US = [10, 25, 50];
const TARGETS = { get: 0.7, session_event: 0.5, check: 0.5, check_unique: 0.5, p99_ms: 10, cli_version: 1.5 };
const tmp = mkdtempSync(join(tmpdir(), 'vtr-bench-'));
const children = new Set();
const results = {
  started_at: new Date().toISOString(),
  machine: machineInfo(),
  config: { quick: QUICK, cli: CLI, duration_s: DURATION, rounds: num('BENCH_ROUNDS', QUICK ? 1 : 3), connections: CONNECTIONS, scale_count: SCALE_COUNT, cli_runs: CLI_RUNS, webhook_sessions: WEBHOOK_SESSIONS },
  sections: {},
};

// ---------------------------------------------------------------------------------------------
// plumbing

function machineInfo() {
  let commit = null;
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {}
  return {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memory_gb: Math.round(totalmem() / 2 ** 30),
    os: `${platform()} ${release()}`,
    node: process.version,
    commit,
    loadavg_start: loadavg().map((l) => +l.toFixed(2)),
  };
}

const log = (line = '') => process.stdout.write(`${line}\n`);
const note = (line) => process.stderr.write(`  … ${line}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : NaN;
};
const round = (x, d = 2) => (Number.isFinite(x) ? +x.toFixed(d) : null);

/** Starts `vtr serve --json --port 0 --db <file>` in its own process. */
async function startEmulator(name, extraArgs = [], nodeArgs = []) {
  const dir = join(tmp, name);
  mkdirSync(dir, { recursive: true });
  const db = join(dir, 'vtr.db');
  const errFile = join(dir, 'server.stderr');
  const child = spawn(process.execPath, [...nodeArgs, CLI, 'serve', '--json', '--port', '0', '--db', db, ...extraArgs], {
    cwd: dir,
    stdio: ['ignore', 'pipe', openSync(errFile, 'w')],
    env: { ...process.env, NO_COLOR: '1' },
  });
  children.add(child);
  const info = await new Promise((res, rej) => {
    let out = '';
    const timer = setTimeout(() => rej(new Error(`vtr serve did not start: ${readFileSync(errFile, 'utf8')}`)), 30_000);
    child.on('exit', (code) => rej(new Error(`vtr serve exited with ${code}: ${readFileSync(errFile, 'utf8')}`)));
    child.stdout.on('data', (d) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl === -1) return;
      clearTimeout(timer);
      res(JSON.parse(out.slice(0, nl)));
    });
  });
  child.stdout.resume();
  const origin = new URL(info.base_url).origin;
  return {
    child,
    db,
    dir,
    origin,
    baseUrl: info.base_url,
    site: info.site,
    stderr: () => readFileSync(errFile, 'utf8'),
    stop: () => stopChild(child),
  };
}

function stopChild(child) {
  return new Promise((res) => {
    if (child.exitCode !== null || child.signalCode !== null) return res();
    const t = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(t);
      children.delete(child);
      res();
    });
    child.kill('SIGTERM');
  });
}

async function startBare(responses, workUs = 0) {
  const file = join(tmp, 'bare-responses.json');
  writeFileSync(file, JSON.stringify(responses));
  const child = spawn(process.execPath, [join(HERE, 'bare-server.mjs'), file, String(workUs)], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.add(child);
  const port = await new Promise((res, rej) => {
    child.once('exit', (code) => rej(new Error(`bare server exited with ${code}`)));
    child.stdout.once('data', (d) => res(JSON.parse(String(d)).port));
  });
  return { origin: `http://127.0.0.1:${port}`, pid: child.pid, stop: () => stopChild(child) };
}

async function call(origin, method, path, { body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${origin}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let json;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, text, body: json };
}

/** Runs fn(i) for i in [0, n) with `concurrency` in flight. */
async function pool(n, concurrency, fn) {
  let next = 0;
  const out = new Array(n);
  await Promise.all(
    Array.from({ length: Math.min(concurrency, n) }, async () => {
      while (next < n) {
        const i = next++;
        out[i] = await fn(i);
      }
    }),
  );
  return out;
}

async function createSessions(emu, n, spec = {}, concurrency = 8) {
  return pool(n, concurrency, async (i) => {
    const r = await call(emu.origin, 'POST', `/_vtr/api/sites/${emu.site.site_id}/sessions`, {
      body: { ip: `192.0.2.${(i % 250) + 1}`, ...spec },
    });
    if (r.status !== 201) throw new Error(`creating a session answered ${r.status}: ${r.text.slice(0, 300)}`);
    return r.body.session_id;
  });
}

let CLK_TCK = null;
try {
  CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()) || 100;
} catch {
  CLK_TCK = 100;
}

/** CPU time (user + system, all threads) a process has used so far, in µs; null without /proc. */
function processCpuUs(pid, mainThreadOnly = false) {
  if (!pid) return null;
  try {
    const stat = readFileSync(mainThreadOnly ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`, 'utf8');
    // Fields after "(comm)": state is field 3, utime field 14, stime field 15.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1e6) / CLK_TCK;
  } catch {
    return null;
  }
}

/**
 * One autocannon run; `paths` rotate per request (round robin). `makeBody(n)`, if given, builds each
 * request's body from a counter that never repeats within the process. `pid` is the server process
 * whose CPU time is measured over the run.
 */
let bodyCounter = 0;
async function cannon(origin, { method = 'GET', paths, body, makeBody, headers = {}, duration = DURATION, pid }) {
  let i = 0;
  const cpu0 = processCpuUs(pid);
  const main0 = processCpuUs(pid, true);
  const r = await autocannon({
    url: origin,
    connections: CONNECTIONS,
    duration,
    requests: [
      {
        method,
        body,
        headers: { ...(body || makeBody ? { 'content-type': 'application/json' } : {}), ...headers },
        setupRequest(req) {
          req.path = paths[i++ % paths.length];
          if (makeBody) req.body = makeBody(bodyCounter++);
          return req;
        },
      },
    ],
  });
  const cpu1 = processCpuUs(pid);
  const main1 = processCpuUs(pid, true);
  const perReq = (a, b) => (a != null && b != null && r.requests.total > 0 ? (b - a) / r.requests.total : null);
  const cpuUsPerReq = perReq(cpu0, cpu1);
  return {
    rps: round(r.requests.average, 0),
    p50_ms: r.latency.p50,
    p99_ms: r.latency.p99,
    max_ms: r.latency.max,
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    cpu_us_per_req: round(cpuUsPerReq, 1),
    main_thread_cpu_us_per_req: round(perReq(main0, main1), 1),
  };
}

function dbFileBytes(db) {
  let total = 0;
  for (const f of [db, `${db}-wal`, `${db}-shm`]) if (existsSync(f)) total += statSync(f).size;
  return total;
}

const fmtCpu = (us) => (us == null ? 'n/a' : `${Math.round(us)} µs`);
const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const fmtRatio = (r, target, higherIsBetter = true) =>
  r == null ? 'n/a' : `${r.toFixed(2)}${target == null ? '' : (higherIsBetter ? r >= target : r <= target) ? ' ✓' : ' ✗'}`;

function table(rows, header) {
  const all = [header, ...rows].map((r) => header.map((_, i) => String(r[i] ?? '')));
  const widths = header.map((_, i) => Math.max(...all.map((r) => r[i].length)));
  const line = (r) => r.map((c, i) => c.padEnd(widths[i])).join('  ');
  log(line(all[0]));
  log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of all.slice(1)) log(line(r));
}

/** Summarises a V8 .cpuprofile: the functions with the most self time, as a share of busy time. */
function summariseProfile(file, top = 25) {
  const prof = JSON.parse(readFileSync(file, 'utf8'));
  const idle = prof.nodes.filter((n) => n.callFrame.functionName === '(idle)').reduce((t, n) => t + (n.hitCount ?? 0), 0);
  const total = prof.samples.length - idle || 1;
  const byFn = new Map();
  for (const n of prof.nodes) {
    const cf = n.callFrame;
    if (cf.functionName === '(idle)') continue;
    const where = cf.url ? `${basename(cf.url)}:${cf.lineNumber + 1}` : '';
    const key = `${cf.functionName || '(anonymous)'} ${where}`.trim();
    byFn.set(key, (byFn.get(key) ?? 0) + (n.hitCount ?? 0));
  }
  return [...byFn.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([fn, hits]) => ({ fn, self_pct: round((100 * hits) / total, 1) }));
}

// ---------------------------------------------------------------------------------------------
// 1. HTTP throughput and latency

async function benchHttp() {
  log('\n## HTTP throughput and latency');
  log(`autocannon, ${CONNECTIONS} connections, ${DURATION} s per run, ${ROUNDS} round(s) per route, loopback; emulator and baseline each in their own process\n`);
  const profDir = join(tmp, 'cpu-profile');
  const emu = await startEmulator('http', [], [...(PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []), ...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [])]);
  const token = emu.site.access_token;
  const auth = { authorization: `Bearer ${token}` };
  note(`creating ${SESSIONS_FOR_HTTP} sessions`);
  const ids = await createSessions(emu, SESSIONS_FOR_HTTP, { page_views: 3, duration: 40, referrer: 'https://news.example.org/a' });

  const getRes = await call(emu.origin, 'GET', `/api/v1/session/${ids[0]}`, { token });
  const eventRes = await call(emu.origin, 'POST', `/api/v1/session/${ids[0]}/event`, { token, body: { name: 'bench' } });
  if (getRes.status !== 200 || eventRes.status !== 200) throw new Error(`sanity requests failed: ${getRes.status} ${eventRes.status}`);

  // A real probe from one of the sessions' page views.
  const ro = new Database(emu.db, { readonly: true, fileMustExist: true });
  const probe = ro.prepare('SELECT probe_id FROM probes ORDER BY created_us DESC LIMIT 1').get()?.probe_id ?? 'prb_missing';
  ro.close();
  const checkBody = JSON.stringify({
    secret_key: emu.site.secret_key,
    probe_id: probe,
    ip: '192.0.2.10',
    email: 'Jane.Doe+shop@example.com',
    name: 'Jane Doe',
    phone: '(212) 664-7665',
    address: { address1: '30 Rockefeller Plaza', city: 'New York', state: 'New York', country: 'United States', postal_code: '10112' },
  });
  // The same shape with every body different: a counter in the email, phone, address and name.
  const letters = (n) => {
    let s = '';
    do {
      s = String.fromCharCode(97 + (n % 26)) + s;
      n = Math.floor(n / 26);
    } while (n > 0);
    return s;
  };
  const uniqueCheckBody = (n) =>
    JSON.stringify({
      secret_key: emu.site.secret_key,
      probe_id: probe,
      ip: '192.0.2.10',
      email: `jane.doe+${n}@example.com`,
      name: `Jane Doe${letters(n)}`,
      phone: `(212) 664-${String(n % 10000).padStart(4, '0')}`,
      address: { address1: `${(n % 9000) + 1} Rockefeller Plaza`, city: 'New York', state: 'New York', country: 'United States', postal_code: '10112' },
    });
  const checkRes = await call(emu.origin, 'POST', '/api/v1/event', { body: JSON.parse(checkBody) });
  const checkAvailable = checkRes.status === 200;
  if (!checkAvailable) note(`POST /api/v1/event answered ${checkRes.status}: not available in this build`);
  const uniqueRes = checkAvailable ? await call(emu.origin, 'POST', '/api/v1/event', { body: JSON.parse(uniqueCheckBody(987_654_321)) }) : checkRes;
  const uniqueAvailable = uniqueRes.status === 200;
  if (checkAvailable && !uniqueAvailable) note(`POST /api/v1/event with a varied body answered ${uniqueRes.status}: ${uniqueRes.text.slice(0, 200)}`);

  const bare = await startBare({ get: getRes.text, event: eventRes.text, check: checkAvailable ? checkRes.text : '{}' });
  const sessionPaths = ids.map((id) => `/api/v1/session/${id}`);
  const eventPaths = ids.map((id) => `/api/v1/session/${id}/event`);
  const eventBody = JSON.stringify({ name: 'bench' });

  // After each run the emulator finishes what a flood leaves it to do in the background (the
  // request log's entries, written once requests pause; the WAL's catch-up) before the next run
  // starts: reading the log writes what waits, and the pause lets the checkpoint worker copy it.
  // Otherwise that work would run during the next run, the bare server's (flattering the ratio) or
  // its own. Both sides get the same pause.
  const settled = async (run) => {
    const result = await run;
    await call(emu.origin, 'GET', '/_vtr/api/logs?limit=1');
    await sleep(SETTLE_MS);
    return result;
  };
  note('warming up');
  await settled(cannon(emu.origin, { paths: sessionPaths, headers: auth, duration: 1, pid: emu.child.pid }));
  await cannon(bare.origin, { paths: sessionPaths, headers: auth, duration: 1, pid: bare.pid });

  const cases = [
    { key: 'get', label: 'GET /api/v1/session/{id}', opts: { paths: sessionPaths, headers: auth } },
    { key: 'session_event', label: 'POST /api/v1/session/{id}/event', opts: { method: 'POST', paths: eventPaths, headers: auth, body: eventBody } },
    { key: 'check', label: 'POST /api/v1/event (full body)', available: checkAvailable, opts: { method: 'POST', paths: ['/api/v1/event'], body: checkBody } },
    {
      key: 'check_unique',
      label: 'POST /api/v1/event (full body, every body different)',
      available: uniqueAvailable,
      opts: { method: 'POST', paths: ['/api/v1/event'], makeBody: uniqueCheckBody },
    },
  ];
  const out = {};
  const only = process.env.BENCH_HTTP_CASES?.split(',');
  for (const c of cases) {
    if (only && !only.includes(c.key)) c.available = false;
    if (c.available === false) {
      if (c.key === 'check' && !checkAvailable) out[c.key] = { available: false, reason: `answered ${checkRes.status}: ${checkRes.text.slice(0, 200)}` };
      if (c.key === 'check_unique' && !uniqueAvailable && (!only || only.includes(c.key)))
        out[c.key] = { available: false, reason: `answered ${uniqueRes.status}: ${uniqueRes.text.slice(0, 200)}` };
      continue;
    }
    const rounds = [];
    for (let r = 0; r < ROUNDS; r++) {
      note(`${c.label}${ROUNDS > 1 ? ` (round ${r + 1} of ${ROUNDS})` : ''}`);
      let base;
      let vtr;
      if (r % 2 === 0) {
        base = await settled(cannon(bare.origin, { ...c.opts, pid: bare.pid }));
        vtr = await settled(cannon(emu.origin, { ...c.opts, pid: emu.child.pid }));
      } else {
        vtr = await settled(cannon(emu.origin, { ...c.opts, pid: emu.child.pid }));
        base = await settled(cannon(bare.origin, { ...c.opts, pid: bare.pid }));
      }
      rounds.push({ bare: base, vtr, ratio: round(vtr.rps / base.rps, 3) });
    }
    const med = (side, key) => median(rounds.map((x) => x[side][key]));
    const summary = (side) => ({
      rps: round(med(side, 'rps'), 0),
      p50_ms: med(side, 'p50_ms'),
      p99_ms: med(side, 'p99_ms'),
      cpu_us_per_req: rounds.every((x) => x[side].cpu_us_per_req != null) ? round(med(side, 'cpu_us_per_req'), 1) : null,
      main_thread_cpu_us_per_req: rounds.every((x) => x[side].main_thread_cpu_us_per_req != null) ? round(med(side, 'main_thread_cpu_us_per_req'), 1) : null,
      requests: rounds.reduce((n, x) => n + x[side].requests, 0),
      non2xx: rounds.reduce((n, x) => n + x[side].non2xx, 0),
      errors: rounds.reduce((n, x) => n + x[side].errors, 0),
    });
    out[c.key] = {
      label: c.label,
      bare: summary('bare'),
      vtr: summary('vtr'),
      ratio: median(rounds.map((x) => x.ratio)),
      ratios: rounds.map((x) => x.ratio),
      target_ratio: TARGETS[c.key],
      rounds,
    };
  }
  // Headroom: the same bare server, spinning a fixed W µs of CPU per request before it answers, on
  // the check route's requests. Its ratio to the plain bare server is what W µs of route work
  // allows on this machine, whatever the code: the yardstick for reading the ratios above.
  if (!only || only.includes('headroom')) {
    out.headroom = [];
    const checkResponses = { get: getRes.text, event: eventRes.text, check: checkAvailable ? checkRes.text : '{}' };
    const opts = { method: 'POST', paths: ['/api/v1/event'], body: checkBody };
    for (const workUs of HEADROOM_WORK_US) {
      const worker = await startBare(checkResponses, workUs);
      const ratios = [];
      const p99s = [];
      for (let r = 0; r < ROUNDS; r++) {
        note(`headroom: bare + ${workUs} µs per request${ROUNDS > 1 ? ` (round ${r + 1} of ${ROUNDS})` : ''}`);
        const pair = r % 2 === 0
          ? [await cannon(bare.origin, { ...opts, pid: bare.pid }), await cannon(worker.origin, { ...opts, pid: worker.pid })]
          : [null, await cannon(worker.origin, { ...opts, pid: worker.pid })];
        if (!pair[0]) pair[0] = await cannon(bare.origin, { ...opts, pid: bare.pid });
        ratios.push(round(pair[1].rps / pair[0].rps, 3));
        p99s.push(pair[1].p99_ms);
      }
      await worker.stop();
      // Its p99 too: what that much route work does to the tail on this machine, with no GC or I/O.
      out.headroom.push({ work_us: workUs, ratio: median(ratios), ratios, p99_ms: median(p99s), p99s_ms: p99s });
    }
  }
  await bare.stop();
  await emu.stop();
  const unexpected = emu.stderr().match(/unexpected error/g)?.length ?? 0;

  const rows = cases.map((c) => {
    const r = out[c.key];
    if (!r || r.available === false) return [c.label, r ? 'not available' : 'skipped'];
    return [
      c.label,
      `${r.vtr.rps}/s`,
      `${r.bare.rps}/s`,
      fmtRatio(r.ratio, r.target_ratio),
      `≥ ${r.target_ratio}`,
      `${r.vtr.p50_ms} / ${r.vtr.p99_ms} ms ${r.vtr.p99_ms < TARGETS.p99_ms ? '✓' : '✗'}`,
      `${r.bare.p50_ms} / ${r.bare.p99_ms} ms`,
      `${fmtCpu(r.vtr.cpu_us_per_req)} (${fmtCpu(r.vtr.main_thread_cpu_us_per_req)})`,
      `${fmtCpu(r.bare.cpu_us_per_req)} (${fmtCpu(r.bare.main_thread_cpu_us_per_req)})`,
      r.vtr.non2xx + r.vtr.errors ? `${r.vtr.non2xx} non-2xx, ${r.vtr.errors} errors` : '',
    ];
  });
  if (ROUNDS > 1) log(`medians of ${ROUNDS} rounds; ratio = median of the per-round ratios (${cases.map((c) => out[c.key]?.ratios?.join(' / ')).filter(Boolean).join('; ')})\n`);
  table(rows, ['route', 'vtr', 'bare', 'ratio', 'target', 'vtr p50 / p99', 'bare p50 / p99', 'vtr cpu/req (main)', 'bare cpu/req (main)', 'failures']);
  log('cpu/req: server process CPU (user+sys, all threads) per completed request, and in brackets its main thread\'s alone (what bounds a single-threaded server); the ratio is bounded by the load generator on a 2-core machine');
  log('GET reads 1,000 sessions that do not change, so it is answered from the emulator\'s session-JSON cache; the scale section\'s GET (100,000 random ids) is the SQLite path');
  if (out.headroom) {
    log(`\nheadroom: a bare server that spends W µs more CPU per request (a fixed spin), POST /api/v1/event, as a ratio to the bare server`);
    log(`  ${out.headroom.map((h) => `+${h.work_us} µs: ${h.ratio.toFixed(2)} (p99 ${h.p99_ms} ms)`).join('   ')}   (vtr's check spends about ${fmtCpu(out.check?.vtr?.main_thread_cpu_us_per_req != null && out.check?.bare?.main_thread_cpu_us_per_req != null ? out.check.vtr.main_thread_cpu_us_per_req - out.check.bare.main_thread_cpu_us_per_req : null)} more on its main thread)`);
  }
  if (unexpected) log(`\n!! the server logged ${unexpected} unexpected error(s)`);

  if (PROFILE) {
    const files = existsSync(profDir) ? readdirSync(profDir).filter((f) => f.endsWith('.cpuprofile')) : [];
    if (files.length) {
      const keep = join(HERE, 'results', `server-${Date.now()}.cpuprofile`);
      writeFileSync(keep, readFileSync(join(profDir, files[0])));
      const top = summariseProfile(join(profDir, files[0]));
      out.profile = { file: keep, top };
      log(`\nserver CPU profile (all HTTP runs), top self time as a share of busy time — ${keep}`);
      for (const t of top) log(`  ${String(t.self_pct).padStart(5)}%  ${t.fn}`);
    }
  }
  results.sections.http = out;
}

// ---------------------------------------------------------------------------------------------
// 2. CLI start-up

function timeRun(cmd, args, env) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, status: r.status, stderr: r.stderr, stdout: r.stdout };
}

async function benchCli() {
  log('\n## CLI start-up');
  log(`median of ${CLI_RUNS} runs each, interleaved; commands that talk to the server use a running emulator\n`);
  const emu = await startEmulator('cli');
  await createSessions(emu, 5);
  const env = { ...process.env, VTR_BASE_URL: emu.baseUrl, CI: '1', NO_COLOR: '1' };
  const node = process.execPath;
  const cmds = [
    { key: 'node', label: 'node -e 0 (baseline)', args: ['-e', '0'] },
    { key: 'version', label: 'vtr --version', args: [CLI, '--version'], target: TARGETS.cli_version },
    { key: 'help', label: 'vtr --help', args: [CLI, '--help'] },
    { key: 'sessions_list', label: 'vtr sessions list --limit 1', args: [CLI, 'sessions', 'list', '--limit', '1'] },
    { key: 'check', label: 'vtr check --ip 192.0.2.1', args: [CLI, 'check', '--ip', '192.0.2.1'] },
  ];
  for (const c of cmds) {
    const r = timeRun(node, c.args, env); // warm the file cache, and see that it works
    c.available = r.status === 0;
    if (!c.available) c.reason = `exit ${r.status}: ${(r.stderr || r.stdout).trim().split('\n')[0]?.slice(0, 160)}`;
    c.times = [];
  }
  for (let i = 0; i < CLI_RUNS; i++) for (const c of cmds) if (c.available) c.times.push(timeRun(node, c.args, env).ms);
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
    out[c.key] = { median_ms: round(m, 1), min_ms: round(Math.min(...c.times), 1), ratio: round(m / base, 2), target_ratio: c.target ?? null };
    rows.push([c.label, `${m.toFixed(1)} ms`, c.key === 'node' ? '1.00' : fmtRatio(m / base, c.target, false), c.target ? `< ${c.target}` : '', '']);
  }
  table(rows, ['command', 'median', 'ratio to node', 'target', 'note']);
  results.sections.cli = out;
}

// ---------------------------------------------------------------------------------------------
// 3. Scale

async function benchScale(httpGet) {
  log('\n## Scale');
  const emu = await startEmulator('scale');
  const env = { ...process.env, VTR_BASE_URL: emu.baseUrl, CI: '1', NO_COLOR: '1' };
  const help = timeRun(process.execPath, [CLI, 'sessions', 'simulate', '--help'], env);
  const simulate = help.status === 0 && /--count/.test(help.stdout);
  const out = { method: null };
  let count = SCALE_COUNT;
  const t0 = performance.now();
  if (simulate) {
    out.method = `vtr sessions simulate --count ${count}`;
    note(`${out.method} (this takes a while at 1,000,000)`);
    const r = await new Promise((res) => {
      const child = spawn(process.execPath, [CLI, 'sessions', 'simulate', '--count', String(count), '--seed', '1', '--json', '--quiet'], {
        env,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      children.add(child);
      let err = '';
      child.stderr.on('data', (d) => (err += d));
      child.on('exit', (code) => {
        children.delete(child);
        res({ code, err });
      });
    });
    if (r.code !== 0) throw new Error(`simulate failed (${r.code}): ${r.err.slice(0, 500)}`);
  } else {
    count = Math.min(SCALE_COUNT, FALLBACK_SCALE_CAP);
    out.method = `management API POST /_vtr/api/sites/:id/sessions × ${count} (fallback: \`vtr sessions simulate\` not available)`;
    note(out.method);
    const ips = ['192.0.2.7', '198.51.100.7', '203.0.113.7', '2001:db8::7', '10.0.0.7'];
    const uas = [
      undefined,
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    ];
    await pool(count, 16, async (i) => {
      const r = await call(emu.origin, 'POST', `/_vtr/api/sites/${emu.site.site_id}/sessions`, {
        body: {
          ip: ips[i % ips.length],
          ...(uas[i % 3] ? { user_agent: uas[i % 3] } : {}),
          url: i % 4 === 0 ? `https://shop.example/?gclid=g${i}` : 'https://shop.example/',
          page_views: 1 + (i % 4),
          duration: (i % 5) * 20,
        },
      });
      if (r.status !== 201) throw new Error(`creating a session answered ${r.status}: ${r.text.slice(0, 300)}`);
    });
  }
  const secs = (performance.now() - t0) / 1000;
  out.count = count;
  out.seconds = round(secs, 1);
  out.sessions_per_s = round(count / secs, 0);
  out.db_bytes = dbFileBytes(emu.db);
  out.db_bytes_per_session = round(out.db_bytes / count, 0);

  // A random sample of ids across the whole table.
  const ro = new Database(emu.db, { readonly: true, fileMustExist: true });
  const total = ro.prepare('SELECT count(*) AS n FROM sessions').get().n;
  // Random rowids rather than ORDER BY random(), which would sort the whole table.
  const maxRowid = ro.prepare('SELECT max(rowid) AS m FROM sessions').get().m ?? 0;
  const byRowid = ro.prepare('SELECT session_id FROM sessions WHERE rowid = ?');
  const ids = [];
  // 100,000 of them: far more than the emulator's cache of session JSON (4,096), so this measures
  // the SQLite look-up at size, not the cache.
  for (let i = 0; i < 200_000 && ids.length < SCALE_GET_IDS; i++) {
    const r = byRowid.get(1 + Math.floor(Math.random() * maxRowid));
    if (r) ids.push(r.session_id);
  }
  ro.close();
  out.sessions_in_db = total;

  note('GET latency at size');
  const get = await cannon(emu.origin, { paths: ids.map((id) => `/api/v1/session/${id}`), headers: { authorization: `Bearer ${emu.site.access_token}` } });
  out.get = { ...get, ratio_to_small_db: httpGet ? round(get.rps / httpGet.rps, 3) : null };

  note('sessions list --where latency at size');
  const filters = [
    'risk_level = invalid',
    'channel = paid and device_type = mobile',
    'risks contains hosting',
    'country_code = DE and page_views >= 3',
    'city = "Nowhere"', // matches nothing: a full scan
  ];
  out.list = [];
  const site = emu.site.site_id;
  for (const f of filters) {
    const times = [];
    let n = 0;
    // A filter that matches little scans the whole table: fewer runs at a large size.
    for (let i = 0; i < (QUICK || count > 100_000 ? 3 : 7); i++) {
      const t = performance.now();
      const r = await call(emu.origin, 'GET', `/_vtr/api/sessions?site=${site}&limit=20&where=${encodeURIComponent(f)}`);
      times.push(performance.now() - t);
      if (r.status !== 200) throw new Error(`list --where ${f} answered ${r.status}: ${r.text.slice(0, 200)}`);
      n = r.body.length;
    }
    out.list.push({ filter: f, rows: n, median_ms: round(median(times), 1), max_ms: round(Math.max(...times), 1) });
  }
  const cliTimes = [];
  for (let i = 0; i < (QUICK ? 3 : 5); i++) {
    const r = timeRun(process.execPath, [CLI, 'sessions', 'list', '--where', 'risk_level = invalid', '--limit', '20', '--json'], env);
    if (r.status !== 0) throw new Error(`vtr sessions list failed: ${r.stderr}`);
    cliTimes.push(r.ms);
  }
  out.cli_list_median_ms = round(median(cliTimes), 1);
  await emu.stop();

  log(`${out.method}`);
  table(
    [
      ['sessions written', out.count.toLocaleString('en-US'), `${out.seconds} s (${out.sessions_per_s}/s)`],
      ['database file (db + wal)', mb(out.db_bytes), `${out.db_bytes_per_session} B/session`],
      ['GET /api/v1/session/{id}', `${get.rps}/s`, `p50 ${get.p50_ms} ms, p99 ${get.p99_ms} ms; ${out.get.ratio_to_small_db ?? 'n/a'} × the small-DB rate`],
      ...out.list.map((l) => [`list --where ${l.filter}`, `${l.median_ms} ms`, `${l.rows} rows (limit 20), max ${l.max_ms} ms`]),
      ['vtr sessions list --where … (whole CLI run)', `${out.cli_list_median_ms} ms`, 'median'],
    ],
    ['measure', 'value', 'detail'],
  );
  results.sections.scale = out;
}

// ---------------------------------------------------------------------------------------------
// 4. Webhook dispatch

function startReceiver({ failFirst }) {
  const seen = new Map(); // webhook-id -> { triggeredMs, firstMs, deliveredMs, attempts }
  const server = createServer((req, res) => {
    const arrived = Date.now();
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const id = req.headers['webhook-id'];
      let body = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {}
      let rec = seen.get(id);
      if (!rec) {
        rec = { triggeredMs: Date.parse(`${body.triggered_at}Z`), firstMs: arrived, deliveredMs: null, attempts: 0 };
        seen.set(id, rec);
      }
      rec.attempts++;
      if (failFirst && rec.attempts === 1) {
        res.writeHead(500).end();
        return;
      }
      rec.deliveredMs ??= arrived;
      res.writeHead(204).end();
    });
  });
  return new Promise((res) => server.listen(0, '127.0.0.1', () => res({ url: `http://127.0.0.1:${server.address().port}/hook`, seen, close: () => server.close() })));
}

async function webhookRun(name, failFirst, { sessions = WEBHOOK_SESSIONS, concurrency = 8 } = {}) {
  const emu = await startEmulator(`webhooks-${name}`);
  const site = emu.site.site_id;
  const view = await call(emu.origin, 'POST', `/_vtr/api/sites/${site}/views`, {
    body: { name: 'bench', filter: 'entry_path = "/bench-webhook"', trigger_webhooks: true },
  });
  if (view.status === 404 || view.status === 405) {
    await emu.stop();
    return { available: false, reason: `POST /_vtr/api/sites/:id/views answered ${view.status}` };
  }
  if (view.status !== 201 && view.status !== 200) throw new Error(`creating a view answered ${view.status}: ${view.text.slice(0, 300)}`);
  const rcv = await startReceiver({ failFirst });
  const hook = await call(emu.origin, 'POST', `/_vtr/api/sites/${site}/webhooks`, { body: { url: rcv.url } });
  if (hook.status === 404 || hook.status === 405) {
    rcv.close();
    await emu.stop();
    return { available: false, reason: `POST /_vtr/api/sites/:id/webhooks answered ${hook.status}` };
  }
  if (hook.status !== 201 && hook.status !== 200) throw new Error(`creating a webhook answered ${hook.status}: ${hook.text.slice(0, 300)}`);

  const t0 = Date.now();
  await createSessions(emu, sessions, { url: 'https://shop.example/bench-webhook' }, concurrency);
  const created = Date.now();
  const deadline = Date.now() + 120_000 + (failFirst ? 60_000 : 0);
  const delivered = () => [...rcv.seen.values()].filter((r) => r.deliveredMs != null).length;
  while (delivered() < sessions && Date.now() < deadline) await sleep(50);
  const recs = [...rcv.seen.values()];
  const lag = recs.map((r) => r.firstMs - r.triggeredMs).filter(Number.isFinite);
  const lastDelivered = Math.max(...recs.map((r) => r.deliveredMs ?? 0));
  rcv.close();
  await emu.stop();
  return {
    available: true,
    sessions,
    concurrency,
    events_seen: recs.length,
    delivered: delivered(),
    first_attempt_lag_ms: { p50: round(pct(lag, 50), 1), p99: round(pct(lag, 99), 1), max: round(Math.max(...lag), 1) },
    create_seconds: round((created - t0) / 1000, 2),
    total_seconds: round((lastDelivered - t0) / 1000, 2),
  };
}

async function benchWebhooks() {
  log('\n## Webhook dispatch');
  log(`${WEBHOOK_SESSIONS} sessions matching a triggering view, created through the management API (8 in flight); local receiver\n`);
  const out = {};
  out.ok = await webhookRun('ok', false);
  out.fail_once = out.ok.available ? await webhookRun('fail-once', true) : out.ok;
  // One change at a time: the dispatch latency itself, without a queue of concurrent writes.
  out.sequential = out.ok.available ? await webhookRun('sequential', false, { sessions: Math.min(200, WEBHOOK_SESSIONS), concurrency: 1 }) : out.ok;
  const rows = [
    [`receiver answers 2xx (${WEBHOOK_SESSIONS} sessions, 8 in flight)`, out.ok],
    ['receiver fails each first attempt (500), default retry base 2 s', out.fail_once],
    [`one session change at a time (${Math.min(200, WEBHOOK_SESSIONS)} sessions)`, out.sequential],
  ].map(([label, r]) =>
    r.available
      ? [label, `${r.first_attempt_lag_ms.p50} / ${r.first_attempt_lag_ms.p99} ms`, `${r.delivered}/${r.sessions}`, `${r.create_seconds} s`, `${r.total_seconds} s`]
      : [label, `not available (${r.reason})`, '', '', ''],
  );
  table(rows, ['scenario', 'change → first attempt p50 / p99', 'delivered', 'creating took', 'all delivered after']);
  results.sections.webhooks = out;
}

// ---------------------------------------------------------------------------------------------

async function main() {
  if (!existsSync(CLI)) throw new Error(`${CLI} does not exist; run \`npm run build\` (or set VTR_CLI)`);
  log(`# vtr benchmark${QUICK ? ' (--quick)' : ''}`);
  const m = results.machine;
  log(`${m.cpu}, ${m.cores} cores, ${m.memory_gb} GB, ${m.os}, Node ${m.node}, commit ${m.commit ?? '?'}; load average at start ${m.loadavg_start.join(' ')}`);
  log(`CLI: ${CLI}`);
  if (ONLY.includes('http')) await benchHttp();
  if (ONLY.includes('cli')) await benchCli();
  if (ONLY.includes('scale')) await benchScale(results.sections.http?.get?.vtr);
  if (ONLY.includes('webhooks')) await benchWebhooks();
  results.machine.loadavg_end = loadavg().map((l) => +l.toFixed(2));
  results.finished_at = new Date().toISOString();
  mkdirSync(join(HERE, 'results'), { recursive: true });
  const file = join(HERE, 'results', `${results.started_at.replace(/[:.]/g, '-')}${QUICK ? '-quick' : ''}.json`);
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  log(`\nload average at end ${results.machine.loadavg_end.join(' ')}; results: ${file}`);
}

function cleanup() {
  for (const c of children) c.kill('SIGKILL');
  rmSync(tmp, { recursive: true, force: true });
}

process.on('SIGINT', () => {
  cleanup();
  process.exit(130);
});

main()
  .then(() => {
    cleanup();
  })
  .catch((err) => {
    process.stderr.write(`bench failed: ${err.stack ?? err}\n`);
    cleanup();
    process.exitCode = 1;
  });

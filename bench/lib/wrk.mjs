// Load from wrk (https://github.com/wg/wrk, Debian package `wrk`), driven through Lua scripts
// written to the bench's temp dir. One run = one wrk process against one server; the server's CPU
// (utime+stime from /proc/<pid>/stat) is read before and after, so each run says how busy it was.
import { execFileSync, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { config } from './config.mjs';
import { machineBusyS, processCpuS, round } from './util.mjs';
import { track } from './procs.mjs';

export const WRK = process.env.WRK ?? 'wrk';

/** Fails with install instructions when wrk is missing. */
export function assertWrk() {
  try {
    execFileSync(WRK, ['--version'], { stdio: 'ignore' });
  } catch (err) {
    // wrk --version exits 1 after printing its version; only a missing binary throws ENOENT.
    if (err.code !== 'ENOENT') return;
    process.stderr.write('wrk is not installed: the HTTP section loads the servers with it.\n  Debian/Ubuntu: sudo apt-get install wrk\n  macOS: brew install wrk\n(or pass --only=startup,webhooks to skip the HTTP section)\n');
    process.exit(1);
  }
}

/** A Lua long string holding s verbatim. */
const luaStr = (s) => {
  let eq = '';
  while (s.includes(`]${eq}]`)) eq += '=';
  return `[${eq}[${s}]${eq}]`;
};

// Fields of a varied visitor-check body, derived from a counter n that never repeats in a bench
// process: every request a different email, IP, phone, name and street number.
const VARIED_FIELDS = {
  email: 'string.format("jane.doe.%d@%s", n, domains[n % 4 + 1])',
  ip: 'string.format("%d.%d.%d.%d", 11 + n % 180, math.floor(n / 180) % 256, math.floor(n / 46080) % 256, 1 + math.floor(n / 11796480) % 254)',
  phone: 'string.format("(%d) %d-%04d", areas[n % 8 + 1], 200 + math.floor(n / 8) % 800, math.floor(n / 6400) % 10000)',
  name: '"Jane Doe" .. letters(n)',
  address1: 'string.format("%d Rockefeller Plaza", 1 + n % 9000)',
};
const VARIED_PRELUDE = `
domains = { "example.com", "gmail.com", "outlook.com", "yahoo.com" }
areas = { 212, 415, 312, 617, 206, 305, 512, 303 }
function letters(n)
  local s = ""
  repeat s = string.char(97 + n % 26) .. s; n = math.floor(n / 26) until n == 0
  return s
end`;
/** Each run's counters start past the previous run's, so no varied body repeats across runs. */
let variedBase = 1_000;

/**
 * The Lua script for one run. `paths` rotate per request; `body` is a fixed string, or `varied`
 * is a body template whose "@@field@@" strings are replaced per request (see VARIED_FIELDS).
 */
function script({ method, paths, headers, body, varied }) {
  const hdrs = `{ ${Object.entries(headers).map(([k, v]) => `[ ${luaStr(k)} ] = ${luaStr(v)}`).join(', ')} }`;
  const lines = [`method = ${luaStr(method)}`, `headers = ${hdrs}`, `paths = { ${paths.map(luaStr).join(', ')} }`];
  lines.push('next_id = 0', 'function setup(thread) thread:set("id", next_id); next_id = next_id + 1 end');
  if (varied) {
    const order = [];
    const fmt = varied.replace(/%/g, '%%').replace(/@@(\w+)@@/g, (_, f) => (order.push(f), '%s'));
    for (const f of order) if (!VARIED_FIELDS[f]) throw new Error(`unknown varied field ${f}`);
    lines.push(VARIED_PRELUDE, `fmt = ${luaStr(fmt)}`, `base = ${variedBase}`, `threads = ${config.wrkThreads}`, 'k = 0');
    lines.push(`function request()
  local n = base + (id or 0) + k * threads
  k = k + 1
  local body = string.format(fmt, ${order.map((f) => VARIED_FIELDS[f]).join(', ')})
  return wrk.format(method, paths[k % #paths + 1], headers, body)
end`);
    variedBase += 50_000_000;
  } else {
    // Fixed requests are formatted once: the generator then costs as little as wrk can.
    lines.push(`body = ${body == null ? 'nil' : luaStr(body)}`, 'reqs = {}', 'i = 0');
    lines.push('function init(args) for j, p in ipairs(paths) do reqs[j] = wrk.format(method, p, headers, body) end end');
    lines.push('function request() i = i % #reqs + 1; return reqs[i] end');
  }
  lines.push(`function done(s, l, r)
  io.write(string.format('\\nBENCH_JSON {"requests":%d,"duration_us":%d,"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},"latency_us":{"p50":%d,"p90":%d,"p99":%d,"max":%d,"mean":%.1f}}\\n',
    s.requests, s.duration, s.errors.connect, s.errors.read, s.errors.write, s.errors.status, s.errors.timeout,
    l:percentile(50), l:percentile(90), l:percentile(99), l.max, l.mean))
end`);
  return `${lines.join('\n')}\n`;
}

let scriptNo = 0;

/**
 * One wrk run against `origin`; `pid` is the server whose CPU is read over the run.
 * Returns req/s, latency (ms), errors, and CPU in cores for the server (all threads and main
 * thread) and for wrk itself.
 */
export async function runWrk(origin, { method = 'GET', paths, headers = {}, body, varied, duration = config.duration, pid }) {
  const file = join(config.tmp, `load-${++scriptNo}.lua`);
  const hdrs = { ...headers, ...(body != null || varied ? { 'content-type': 'application/json' } : {}) };
  writeFileSync(file, script({ method, paths, headers: hdrs, body, varied }));
  const args = ['-t', String(config.wrkThreads), '-c', String(config.connections), '-d', `${duration}s`, '--latency', '--timeout', '10s', '-s', file, origin];
  const cpu0 = processCpuS(pid);
  const main0 = processCpuS(pid, true);
  const busy0 = machineBusyS();
  // bash's `times` prints the CPU its children (wrk) used: wrk's own load on the machine.
  const child = track(spawn('bash', ['-c', `"${WRK}" "$@"; rc=$?; times; exit $rc`, 'bash', ...args], { stdio: ['ignore', 'pipe', 'pipe'] }));
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const code = await new Promise((res) => child.once('exit', res));
  const cpu1 = processCpuS(pid);
  const main1 = processCpuS(pid, true);
  const busy1 = machineBusyS();
  const json = /BENCH_JSON (\{.*\})/.exec(out)?.[1];
  if (code !== 0 || !json) throw new Error(`wrk failed (exit ${code}): ${err || out}`);
  const r = JSON.parse(json);
  const secs = r.duration_us / 1e6;
  const times = out.trim().split('\n').slice(-1)[0].match(/(\d+)m([\d.]+)s/g) ?? [];
  const wrkCpu = times.map((t) => { const [, m, s] = /(\d+)m([\d.]+)s/.exec(t); return 60 * Number(m) + Number(s); }).reduce((a, b) => a + b, 0);
  const cores = (a, b) => (a != null && b != null ? round((b - a) / secs, 2) : null);
  const ms = (us) => round(us / 1000, 2);
  return {
    rps: Math.round(r.requests / secs),
    requests: r.requests,
    p50_ms: ms(r.latency_us.p50),
    p90_ms: ms(r.latency_us.p90),
    p99_ms: ms(r.latency_us.p99),
    max_ms: ms(r.latency_us.max),
    errors: r.errors,
    failed: r.errors.connect + r.errors.read + r.errors.write + r.errors.status + r.errors.timeout,
    server_cores: cores(cpu0, cpu1),
    server_main_cores: cores(main0, main1),
    server_cpu_us_per_req: cpu0 != null && r.requests ? round(((cpu1 - cpu0) * 1e6) / r.requests, 1) : null,
    wrk_cores: round(wrkCpu / secs, 2),
    // What the rest of the machine took meanwhile: other processes competing for the same cores.
    other_cores: busy0 != null && cpu0 != null ? round((busy1 - busy0 - (cpu1 - cpu0) - wrkCpu) / secs, 2) : null,
  };
}

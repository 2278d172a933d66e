// Small helpers shared by the bench modules: output, statistics, process CPU, HTTP calls.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

export const log = (line = '') => process.stdout.write(`${line}\n`);
export const note = (line) => process.stderr.write(`  … ${line}\n`);
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export const median = (xs) => {
  const s = xs.filter((x) => x != null && Number.isFinite(x)).sort((a, b) => a - b);
  if (!s.length) return null;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
export const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : NaN;
};
/** Max minus min of the finite values: the run-to-run spread. */
export const spread = (xs) => {
  const s = xs.filter((x) => x != null && Number.isFinite(x));
  return s.length ? Math.max(...s) - Math.min(...s) : null;
};
export const round = (x, d = 2) => (x != null && Number.isFinite(x) ? +x.toFixed(d) : null);

export function table(rows, header) {
  const all = [header, ...rows].map((r) => header.map((_, i) => String(r[i] ?? '')));
  const widths = header.map((_, i) => Math.max(...all.map((r) => r[i].length)));
  const line = (r) => r.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  log(line(all[0]));
  log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of all.slice(1)) log(line(r));
}

let clkTck = 100;
try {
  clkTck = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()) || 100;
} catch {}

/** CPU time (user + system) a process has used so far, in seconds; null without /proc. */
export function processCpuS(pid, mainThreadOnly = false) {
  if (!pid) return null;
  try {
    const stat = readFileSync(mainThreadOnly ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`, 'utf8');
    // Fields after "(comm)" start at field 3 (state); utime is field 14, stime field 15.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / clkTck;
  } catch {
    return null;
  }
}

/** Busy CPU time of the whole machine so far (all cores, all processes), in seconds; null without /proc. */
export function machineBusyS() {
  try {
    const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal: everything but idle and iowait is busy.
    return (f[0] + f[1] + f[2] + f[5] + f[6] + (f[7] ?? 0)) / clkTck;
  } catch {
    return null;
  }
}

export async function call(origin, method, path, { body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${origin}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let json;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {}
  return { status: res.status, text, body: json };
}

/** Runs fn(i) for i in [0, n) with `concurrency` in flight. */
export async function pool(n, concurrency, fn) {
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

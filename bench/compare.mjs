#!/usr/bin/env node
// Two commits measured side by side by the same bench (this checkout's bench/run.mjs): each commit
// is built once in a temporary git worktree (node_modules hard-linked from this checkout), then the
// two are run in turn, A B, B A, ... so drift on a shared machine hits both. Prints, per figure,
// each commit's median, the delta, and the run-to-run noise (the spread across all of a commit's
// rounds or start-up runs: max − min, or from 6 values on the interquartile range), and says
// whether the delta is beyond that noise.
//
//   node bench/compare.mjs <commitA> <commitB> [--reps=2] [--keep] [bench/run.mjs options]
//   e.g. node bench/compare.mjs fc1440e HEAD --reps=2 --quick
//
// Without --only, the HTTP and start-up sections run. --keep leaves the builds (in
// $TMPDIR/vtr-compare-<sha>) for the next comparison; otherwise their worktrees are removed.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const BENCH = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(BENCH, '..');
const args = process.argv.slice(2);
const commits = args.filter((a) => !a.startsWith('--'));
const reps = Number(args.find((a) => a.startsWith('--reps='))?.slice(7) ?? 2);
const keep = args.includes('--keep');
const passThrough = args.filter((a) => a.startsWith('--') && !a.startsWith('--reps=') && a !== '--keep');
if (!passThrough.some((a) => a.startsWith('--only='))) passThrough.push('--only=http,startup');
// The generic mock server is the same program for both commits: measuring it twice tells nothing.
if (!passThrough.includes('--no-mock')) passThrough.push('--no-mock');
if (commits.length !== 2 || !Number.isInteger(reps) || reps < 1) {
  console.error('usage: node bench/compare.mjs <commitA> <commitB> [--reps=N (≥ 1)] [--keep] [bench/run.mjs options]');
  process.exit(2);
}
const git = (...a) => execFileSync('git', a, { cwd: ROOT, encoding: 'utf8' }).trim();

/** A built checkout of `commit` (worktree + hard-linked node_modules + tsup). */
function build(commit) {
  const sha = git('rev-parse', '--short=12', `${commit}^{commit}`);
  const dir = join(tmpdir(), `vtr-compare-${sha}`);
  if (existsSync(join(dir, 'dist', 'cli.js'))) return { commit, sha, dir, made: false };
  console.error(`… building ${commit} (${sha}) in ${dir}`);
  if (existsSync(dir)) spawnSync('git', ['worktree', 'remove', '--force', dir], { cwd: ROOT });
  git('worktree', 'add', '-q', '--detach', dir, sha);
  // Hard links: no copy of the bytes, and the build cannot change this checkout's files by path.
  if (spawnSync('cp', ['-al', join(ROOT, 'node_modules'), join(dir, 'node_modules')]).status !== 0) symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  execFileSync(process.execPath, [join(ROOT, 'node_modules', 'tsup', 'dist', 'cli-default.js'), '--no-dts'], { cwd: dir, stdio: 'ignore' });
  return { commit, sha, dir, made: true };
}

function measure(b, rep) {
  const out = join(tmpdir(), `vtr-compare-${b.sha}-${process.pid}-${rep}.json`);
  const r = spawnSync(process.execPath, [join(BENCH, 'run.mjs'), `--root=${b.dir}`, `--out=${out}`, ...passThrough], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.status !== 0) throw new Error(`bench/run.mjs failed for ${b.commit}:\n${r.stdout}`);
  const sections = JSON.parse(readFileSync(out, 'utf8')).sections;
  rmSync(out);
  return sections;
}

/** Per figure, every measured value of one run: a name → list (rounds, or one value). */
function figures(sections) {
  const f = {};
  const add = (name, xs) => (f[name] ??= []).push(...xs.filter((x) => x != null && Number.isFinite(x)));
  for (const [key, c] of Object.entries(sections.http?.cases ?? {})) {
    c.sides.forEach((s, i) => {
      const tag = i ? `${key} [${s.tag ?? s.serve_args.join(' ')}]` : key;
      add(`${tag} ratio`, c.rounds.map((r) => r.sides[i].ratio));
      add(`${tag} vtr cpu/req µs`, c.rounds.map((r) => r.sides[i].server_cpu_us_per_req));
      add(`${tag} vtr p99 ms`, c.rounds.map((r) => r.sides[i].p99_ms));
    });
    add(`${key} bare cores`, c.rounds.map((r) => r.bare.server_cores));
  }
  const st = sections.startup ?? {};
  for (const k of ['version', 'import_vtr']) if (st[k]?.ratios) add(`${k} ratio to node`, st[k].ratios);
  if (st.inproc_start_ms?.times_ms) add('startEmulator() ms', st.inproc_start_ms.times_ms);
  if (st.inproc_start_cpu_ms?.times_ms) add('startEmulator() CPU ms', st.inproc_start_cpu_ms.times_ms);
  return f;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : null;
};
const quantile = (xs, q) => {
  const s = [...xs].sort((x, y) => x - y);
  const at = (s.length - 1) * q;
  return s[Math.floor(at)] + (s[Math.ceil(at)] - s[Math.floor(at)]) * (at - Math.floor(at));
};
/** Run-to-run noise: max − min of a few values; from 6 on, the interquartile range (one stray run does not hide a change). */
const noiseOf = (xs) => (!xs.length ? null : xs.length < 6 ? Math.max(...xs) - Math.min(...xs) : quantile(xs, 0.75) - quantile(xs, 0.25));
const fmt = (x) => (x == null ? 'n/a' : Math.abs(x) >= 100 ? x.toFixed(0) : x.toFixed(2));

const builds = commits.map(build);
const all = builds.map(() => ({}));
try {
  for (let rep = 0; rep < reps; rep++) {
    for (const i of rep % 2 ? [1, 0] : [0, 1]) {
      console.error(`… turn ${rep + 1} of ${reps}: ${builds[i].commit} (${builds[i].sha})`);
      for (const [name, xs] of Object.entries(figures(measure(builds[i], rep)))) (all[i][name] ??= []).push(...xs);
    }
  }
} finally {
  if (!keep) for (const b of builds) if (b.made) spawnSync('git', ['worktree', 'remove', '--force', b.dir], { cwd: ROOT });
}

const [A, B] = builds;
console.log(`\nA = ${A.commit} (${A.sha}), B = ${B.commit} (${B.sha}); ${reps} turn(s) each, alternating; run.mjs ${passThrough.join(' ')}`);
const rows = [['figure', 'A median', 'B median', 'B − A', 'noise (spread A / B)', 'verdict', 'n (A / B)']];
for (const name of [...new Set([...Object.keys(all[0]), ...Object.keys(all[1])])]) {
  const a = all[0][name] ?? [];
  const b = all[1][name] ?? [];
  const ma = median(a);
  const mb = median(b);
  const sa = noiseOf(a);
  const sb = noiseOf(b);
  const delta = ma != null && mb != null ? mb - ma : null;
  const noise = Math.max(sa ?? 0, sb ?? 0);
  const verdict = delta == null ? 'no figure' : a.length < 2 && b.length < 2 ? 'one value each: no noise estimate' : Math.abs(delta) <= noise ? 'within noise' : 'beyond noise';
  rows.push([name, fmt(ma), fmt(mb), delta == null ? '' : `${delta >= 0 ? '+' : ''}${fmt(delta)}`, `${fmt(sa)} / ${fmt(sb)}`, verdict, `${a.length} / ${b.length}`]);
}
const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
for (const [j, r] of rows.entries()) {
  console.log(r.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd());
  if (j === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
}
console.log('\nratio: emulator req/s ÷ bare req/s in the same round (rounds whose bare server was below 0.9 core have none); higher is better.');
console.log('cpu/req, p99, ms: lower is better. noise: each commit\'s spread over all its rounds or runs (max − min below 6 values, the');
console.log('interquartile range from 6 on); "beyond noise" only when |B − A| exceeds both.');

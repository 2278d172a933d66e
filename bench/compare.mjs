#!/usr/bin/env node
// Two commits' HTTP figures back to back: on a shared machine a change worth 10 % is smaller than
// the drift between two runs minutes apart, so each commit is built once and the two are measured
// in turn (A B A B ...), each turn a one-round `bench/run.mjs --only=http` against that build.
//
//   node bench/compare.mjs <commitA> <commitB> [--cases=session_event,check] [--reps=3]
//
// Builds go to $TMPDIR/vtr-compare-<commit> (a clone with this checkout's node_modules linked,
// `tsup --no-dts`), kept for the next comparison. Prints each turn, then the medians per commit:
// the ratio to the bare server, the main thread's CPU per request (what bounds throughput) and p99.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, fallback) => args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const commits = args.filter((a) => !a.startsWith('--'));
if (commits.length !== 2) {
  console.error('usage: node bench/compare.mjs <commitA> <commitB> [--cases=session_event,check] [--reps=3]');
  process.exit(2);
}
const cases = opt('cases', 'session_event,check');
const reps = Number(opt('reps', '3'));
if (!Number.isInteger(reps) || reps < 1) {
  console.error('--reps: expected a whole number of at least 1');
  process.exit(2);
}

const git = (...a) => execFileSync('git', a, { cwd: ROOT, encoding: 'utf8' }).trim();

/** The built CLI of `commit`, building it first if needed. */
function build(commit) {
  const sha = git('rev-parse', '--short=12', `${commit}^{commit}`);
  const dir = join(tmpdir(), `vtr-compare-${sha}`);
  const cli = join(dir, 'dist', 'cli.js');
  if (existsSync(cli)) return { sha, cli };
  console.error(`… building ${commit} (${sha}) in ${dir}`);
  spawnSync('rm', ['-rf', dir]);
  execFileSync('git', ['clone', '-q', ROOT, dir]);
  execFileSync('git', ['checkout', '-q', sha], { cwd: dir });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  execFileSync(process.execPath, [join(ROOT, 'node_modules', 'tsup', 'dist', 'cli-default.js'), '--no-dts'], { cwd: dir, stdio: 'ignore' });
  return { sha, cli };
}

/** One one-round HTTP run against `cli`: the figures of each case, from the run's JSON file. */
function measure(cli) {
  const r = spawnSync(process.execPath, [join(ROOT, 'bench', 'run.mjs'), '--only=http'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, VTR_CLI: cli, BENCH_HTTP_CASES: cases, BENCH_ROUNDS: '1' },
  });
  const file = /results: (\S+\.json)/.exec(r.stdout)?.[1];
  if (r.status !== 0 || !file) throw new Error(`bench/run.mjs failed:\n${r.stdout}\n${r.stderr}`);
  const http = JSON.parse(readFileSync(file, 'utf8')).sections.http;
  return Object.fromEntries(
    Object.entries(http)
      .filter(([, c]) => c?.vtr)
      .map(([k, c]) => [k, { ratio: c.ratio, main: c.vtr.main_thread_cpu_us_per_req, p99: c.vtr.p99_ms }]),
  );
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const builds = commits.map(build);
const turns = builds.map(() => []);
for (let rep = 0; rep < reps; rep++) {
  // Alternate which goes first, so neither always runs on the warmer machine.
  const order = rep % 2 ? [1, 0] : [0, 1];
  for (const i of order) {
    const m = measure(builds[i].cli);
    turns[i].push(m);
    const line = Object.entries(m).map(([k, v]) => `${k} ${v.ratio} (main ${v.main} µs, p99 ${v.p99} ms)`).join('; ');
    console.log(`${commits[i].padEnd(12)} turn ${rep + 1}: ${line}`);
  }
}
console.log('\nmedians');
for (const [i, b] of builds.entries()) {
  for (const k of Object.keys(turns[i][0] ?? {})) {
    const of = (f) => median(turns[i].map((t) => t[k][f]));
    console.log(`${commits[i].padEnd(12)} ${b.sha}  ${k.padEnd(14)} ratio ${of('ratio').toFixed(2)}  main ${of('main').toFixed(0)} µs  p99 ${of('p99')} ms`);
  }
}

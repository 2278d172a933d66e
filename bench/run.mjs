#!/usr/bin/env node
// `npm run bench`: vtr's speed against baselines measured in the same run (see bench/README.md).
//
//   node bench/run.mjs [--quick] [--only=http,startup,webhooks,scale] [--scale] [--rounds=N]
//     [--duration=S] [--connections=N] [--wrk-threads=N] [--cases=get,session_event,check,check_varied]
//     [--serve-arg=--sync=full ...] [--root=<built checkout>] [--out=<file.json>] [--profile] [--stalls]
//     [--floor] [--floor-work=N] [--no-mock]
//
// Prints a table per section and writes every figure to bench/results/<timestamp>.json.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { basename, join } from 'node:path';
import { BENCH_DIR, assertBuilt, config } from './lib/config.mjs';
import { benchHttp } from './lib/http.mjs';
import { killChildren } from './lib/procs.mjs';
import { benchSaturation } from './lib/saturation.mjs';
import { benchScale } from './lib/scale.mjs';
import { benchStartup } from './lib/startup.mjs';
import { log, round } from './lib/util.mjs';
import { benchWebhooks } from './lib/webhooks.mjs';
import { assertWrk } from './lib/wrk.mjs';

function machine() {
  const git = (...args) => {
    try {
      return execFileSync('git', args, { cwd: config.root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      return null;
    }
  };
  const commit = git('rev-parse', '--short', 'HEAD');
  // The last commit that changed what is measured (the bench's own commits do not).
  const srcCommit = git('log', '-1', '--format=%h', '--', 'src', 'package.json', 'tsup.config.ts');
  return {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memory_gb: Math.round(totalmem() / 2 ** 30),
    os: `${platform()} ${release()}`,
    node: process.version,
    commit,
    src_commit: srcCommit,
    loadavg_start: loadavg().map((l) => +l.toFixed(2)),
  };
}

/** The functions with the most self time in a V8 .cpuprofile, as a share of busy time. */
function topOfProfile(file, top = 25) {
  const prof = JSON.parse(readFileSync(file, 'utf8'));
  const byFn = new Map();
  let busy = 0;
  for (const n of prof.nodes) {
    const cf = n.callFrame;
    if (cf.functionName === '(idle)') continue;
    const key = `${cf.functionName || '(anonymous)'} ${cf.url ? `${basename(cf.url)}:${cf.lineNumber + 1}` : ''}`.trim();
    byFn.set(key, (byFn.get(key) ?? 0) + (n.hitCount ?? 0));
    busy += n.hitCount ?? 0;
  }
  return [...byFn].sort((a, b) => b[1] - a[1]).slice(0, top).map(([fn, hits]) => ({ fn, self_pct: round((100 * hits) / (busy || 1), 1) }));
}

async function main() {
  assertBuilt();
  if (['http', 'scale', 'saturation'].some((s) => config.only.includes(s))) assertWrk();
  const results = { started_at: new Date().toISOString(), machine: machine(), config: { ...config, tmp: undefined }, sections: {} };
  const m = results.machine;
  log(`# vtr benchmark${config.quick ? ' (--quick)' : ''}`);
  log(`${m.cpu}, ${m.cores} cores, ${m.memory_gb} GB, ${m.os}, Node ${m.node}, commit ${m.commit ?? '?'} (src ${m.src_commit ?? '?'}, ${config.root}); load average at start ${m.loadavg_start.join(' ')}`);
  if (config.only.includes('saturation')) results.sections.saturation = await benchSaturation();
  if (config.only.includes('http')) {
    results.sections.http = await benchHttp();
    const dir = results.sections.http.profile_dir;
    const file = dir && existsSync(dir) ? readdirSync(dir).find((f) => f.endsWith('.cpuprofile')) : null;
    if (file) {
      const keep = join(BENCH_DIR, 'results', `server-${Date.now()}.cpuprofile`);
      mkdirSync(join(BENCH_DIR, 'results'), { recursive: true });
      copyFileSync(join(dir, file), keep);
      results.sections.http.profile = { file: keep, top: topOfProfile(keep) };
      log(`\nserver CPU profile (all HTTP runs), top self time as a share of busy time — ${keep}`);
      for (const t of results.sections.http.profile.top) log(`  ${String(t.self_pct).padStart(5)}%  ${t.fn}`);
    }
  }
  if (config.only.includes('startup')) results.sections.startup = await benchStartup();
  if (config.only.includes('webhooks')) results.sections.webhooks = await benchWebhooks();
  if (config.only.includes('scale')) results.sections.scale = await benchScale();
  results.machine.loadavg_end = loadavg().map((l) => +l.toFixed(2));
  results.finished_at = new Date().toISOString();
  const file = config.out ?? join(BENCH_DIR, 'results', `${results.started_at.replace(/[:.]/g, '-')}${config.quick ? '-quick' : ''}.json`);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  log(`\nload average at end ${results.machine.loadavg_end.join(' ')}; results: ${file}`);
}

const cleanup = () => {
  killChildren();
  rmSync(config.tmp, { recursive: true, force: true });
};
process.on('SIGINT', () => {
  cleanup();
  process.exit(130);
});
main().then(cleanup, (err) => {
  process.stderr.write(`bench failed: ${err.stack ?? err}\n`);
  cleanup();
  process.exitCode = 1;
});

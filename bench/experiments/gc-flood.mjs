#!/usr/bin/env node
// Experiment (not part of `npm run bench`): what a flood of visitor checks does to the emulator's
// garbage collector. Starts `vtr serve` with `--trace-gc-nvp`, makes a session and its probe, runs
// autocannon with the bench's full check body (50 connections) for 2 s, pauses (so the warm-up's
// request-log entries are written before measuring), then floods for SECONDS more. Prints the
// client's figures and, for the main thread's scavenges during the flood, the mean pause and
// bytes allocated, survived and promoted per scavenge, and the mark-compact pauses. Session 9 of
// docs/performance.md used it to find what the request log kept alive.
//
//   VTR_CLI=dist/cli.js node bench/experiments/gc-flood.mjs [seconds, default 6]
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const SECONDS = Number(process.argv[2] ?? 6);
const CLI = resolve(process.env.VTR_CLI ?? 'dist/cli.js');
const dir = mkdtempSync(join(tmpdir(), 'vtr-gc-flood-'));
const child = spawn(process.execPath, ['--trace-gc-nvp', CLI, 'serve', '--json', '--port', '0', '--db', join(dir, 'vtr.db')], { stdio: ['ignore', 'pipe', 'ignore'] });

// stdout carries the GC lines and, once, the emulator's JSON greeting.
let text = '';
let measuring = false;
const gcs = [];
const info = await new Promise((res, rej) => {
  child.on('exit', (code) => rej(new Error(`vtr serve exited with ${code}`)));
  child.stdout.on('data', (d) => {
    text += d;
    let nl;
    while ((nl = text.indexOf('\n')) >= 0) {
      const line = text.slice(0, nl);
      text = text.slice(nl + 1);
      if (line.startsWith('{"base_url"')) res(JSON.parse(line));
      else if (measuring && line.includes(' gc=')) gcs.push(line);
    }
  });
});
const origin = new URL(info.base_url).origin;
const site = info.site;
const made = await fetch(`${origin}/_vtr/api/sites/${site.site_id}/sessions`, {
  method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ip: '192.0.2.1', page_views: 3 }),
});
if (made.status !== 201) throw new Error(`creating a session answered ${made.status}`);
const ro = new Database(join(dir, 'vtr.db'), { readonly: true });
const probe = ro.prepare('SELECT probe_id FROM probes LIMIT 1').get().probe_id;
ro.close();
const body = JSON.stringify({
  secret_key: site.secret_key, probe_id: probe, ip: '192.0.2.10', email: 'Jane.Doe+shop@example.com', name: 'Jane Doe', phone: '(212) 664-7665',
  address: { address1: '30 Rockefeller Plaza', city: 'New York', state: 'New York', country: 'United States', postal_code: '10112' },
});
const flood = (duration) => autocannon({ url: `${origin}/api/v1/event`, method: 'POST', body, headers: { 'content-type': 'application/json' }, connections: 50, duration });

await flood(2);
await new Promise((r) => setTimeout(r, 1500));
measuring = true;
const r = await flood(SECONDS);
measuring = false;
child.kill('SIGTERM');
await new Promise((res) => child.once('exit', res));
rmSync(dir, { recursive: true, force: true });

const field = (line, name) => Number(line.match(new RegExp(`\\b${name}=([0-9.]+)`))?.[1] ?? NaN);
// The main isolate's lines only: the checkpoint worker's heap prints its own.
const isolates = new Map();
for (const l of gcs) {
  const id = l.match(/^\[\d+:(0x[0-9a-f]+)\]/)?.[1];
  isolates.set(id, (isolates.get(id) ?? 0) + 1);
}
const main = [...isolates].sort((a, b) => b[1] - a[1])[0]?.[0];
const mine = gcs.filter((l) => l.includes(`:${main}]`));
const scavenges = mine.filter((l) => l.includes(' gc=s '));
const mean = (name) => scavenges.reduce((a, l) => a + field(l, name), 0) / Math.max(1, scavenges.length);
const kb = (b) => `${Math.round(b / 1024)} KB`;
console.log(`checks ${Math.round(r.requests.average)}/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}, errors ${r.errors}`);
console.log(`scavenges ${scavenges.length}: pause ${mean('pause').toFixed(2)} ms, allocated ${kb(mean('allocated'))}, survived ${kb(mean('new_space_survived'))}, promoted ${kb(mean('promoted'))} (means)`);
console.log(`mark-compacts ${mine.filter((l) => l.includes(' gc=mc ')).map((l) => `${field(l, 'pause')} ms`).join(', ') || 'none'}`);

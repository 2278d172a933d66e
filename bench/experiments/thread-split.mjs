#!/usr/bin/env node
// Experiment (not part of `npm run bench`): would a second thread lift a POST route's throughput
// ratio on this machine? A throwaway node:http server reads and parses each POST body on the main
// thread, then either spends W µs of CPU on it inline, or hands each event-loop turn's requests to
// a worker thread in one message and answers when the worker is done. Each is loaded like the
// bench's POST cases (autocannon, 50 connections) and compared with the same server doing no work.
// The numbers are in docs/performance.md (session 4).
//
//   node bench/experiments/thread-split.mjs [seconds per run, default 6]
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SECONDS = Number(process.argv[2] ?? 6);
const SELF = fileURLToPath(import.meta.url);

if (process.argv[2] === '--serve') await serve(process.argv[3], Number(process.argv[4]));
else await main();

async function serve(mode, workUs) {
  const { createServer } = await import('node:http');
  const { Worker } = await import('node:worker_threads');
  // Fixed work: a calibrated loop, so a time slice lost to another process is not counted as work.
  const spinSource = `
    let sink = 0;
    const loop = (n) => { let x = sink; for (let i = 0; i < n; i++) x = (x * 1103515245 + 12345) | 0; sink = x; };
    let perUs = 0;
    for (let s = 0; s < 10; s++) { const t0 = performance.now(); let n = 0;
      while (performance.now() - t0 < 20) { loop(10000); n += 10000; } perUs = Math.max(perUs, n / ((performance.now() - t0) * 1000)); }
    const work = () => loop(Math.round(${workUs} * perUs));`;
  const work = new Function(`${spinSource}; return work;`)();
  const body = Buffer.from(JSON.stringify({ success: true, pad: 'x'.repeat(900) }));
  const answer = (res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  };
  let worker;
  const waiting = new Map();
  let batch = [];
  let next = 0;
  if (mode === 'split') {
    worker = new Worker(`${spinSource}
      require('node:worker_threads').parentPort.on('message', (ids) => { for (const _ of ids) work(); require('node:worker_threads').parentPort.postMessage(ids); });`, { eval: true });
    worker.on('message', (ids) => {
      for (const id of ids) {
        answer(waiting.get(id));
        waiting.delete(id);
      }
    });
  }
  createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      if (mode === 'bare') return answer(res);
      JSON.parse(Buffer.concat(chunks).toString() || '{}');
      if (mode === 'inline') {
        work();
        return answer(res);
      }
      const id = next++;
      waiting.set(id, res);
      if (batch.push(id) === 1) setImmediate(() => (worker.postMessage(batch), (batch = [])));
    });
  }).listen(0, '127.0.0.1', function () {
    process.stdout.write(`${this.address().port}\n`);
  });
}

async function run(mode, workUs) {
  const child = spawn(process.execPath, [SELF, '--serve', mode, String(workUs)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve) => child.stdout.once('data', (d) => resolve(Number(String(d).trim()))));
  const r = await autocannon({
    url: `http://127.0.0.1:${port}/api/v1/event`,
    connections: 50,
    duration: SECONDS,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ secret_key: 'sk_test_x', probe_id: 'prb_x', ip: '192.0.2.10', email: 'jane@example.com', phone: '(212) 664-7665' }),
  });
  child.kill();
  return Math.round(r.requests.average);
}

async function main() {
  console.log(`autocannon, 50 connections, ${SECONDS} s per run; ratio = rps / the same server doing no work`);
  for (const workUs of [30, 60]) {
    const bare = await run('bare', 0);
    const inline = await run('inline', workUs);
    const split = await run('split', workUs);
    console.log(`work ${workUs} µs: bare ${bare}/s, inline ${inline}/s (${(inline / bare).toFixed(2)}), worker thread ${split}/s (${(split / bare).toFixed(2)})`);
  }
}

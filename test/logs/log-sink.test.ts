// The request-log sinks: the worker thread (the built dist/log-worker.js, as `vtr serve` runs it)
// writes every row it is given and takes over WAL checkpoints; if it dies, nothing is lost.
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createStore, type Store } from '../../src/store/index.js';
import { inlineSink, workerSink } from '../../src/logs/log-sink.js';
import type { RequestLogEntry } from '../../src/store/request-log.js';

const WORKER = resolve('dist/log-worker.js'); // npm test builds first

let dir: string;
let store: Store;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'vtr-sink-'));
  store = createStore({ path: join(dir, 'vtr.db') });
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

let seq = 0;
const rows = (n: number): RequestLogEntry[] =>
  Array.from({ length: n }, () => {
    seq++;
    return {
      request_id: `req_${String(seq).padStart(8, '0')}`, method: 'GET', path: `/api/v1/session/ses_${seq}`, status: 200, duration_ms: 0.5,
      site_id: null, request_body: null, response_body: `{"n":${seq}}`, created_at: '2026-11-21T09:00:00.000000', seq,
    };
  });

describe('log sinks', () => {
  it('workerSink: every row written, in order, once settled; the server connection stops checkpointing', async () => {
    const sink = workerSink(WORKER, store, inlineSink(store), 100_000);
    expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    for (let i = 0; i < 20; i++) sink.write(rows(50));
    await sink.settled();
    const listed = store.requestLog.list({ limit: 10_000 });
    expect(listed).toHaveLength(1000);
    expect(listed[0].seq).toBe(seq);
    await sink.close();
    expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
  });

  it('workerSink: the worker checkpoints what the server thread writes into the database file', async () => {
    const sink = workerSink(WORKER, store, inlineSink(store));
    const before = statSync(join(dir, 'vtr.db')).size;
    // Writes on the server thread's connection, which no longer checkpoints by itself.
    const insert = store.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
    for (let i = 0; i < 2000; i++) insert.run(`k${i}`, 'x'.repeat(2000));
    await expect.poll(() => statSync(join(dir, 'vtr.db')).size, { timeout: 5000 }).toBeGreaterThan(before + 2000 * 2000);
    await sink.close();
  });

  it('workerSink: a worker that dies hands its rows to the fallback, and later rows too', async () => {
    const broken = join(dir, 'broken-worker.mjs');
    writeFileSync(broken, 'throw new Error("no worker today");');
    const sink = workerSink(broken, store, inlineSink(store));
    sink.write(rows(3));
    await expect.poll(() => store.requestLog.list({ limit: 100 }).length, { timeout: 5000 }).toBe(3);
    sink.write(rows(2));
    await sink.settled();
    expect(store.requestLog.list({ limit: 100 })).toHaveLength(5);
    expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    await sink.close();
  });
});

// The checkpoint worker (the built dist/checkpoint-worker.js, as `vtr serve` runs it) copies the
// WAL back into the database file while the server's connection no longer does; if it dies, the
// server's connection checkpoints again.
import { closeSync, mkdtempSync, openSync, readSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createStore, type Store } from '../../src/store/index.js';
import { startCheckpointer } from '../../src/store/checkpointer.js';
import { WAL_SIZE_LIMIT } from '../../src/store/db.js';

const WORKER = resolve('dist/checkpoint-worker.js'); // npm test builds first

let dir: string;
let store: Store;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'vtr-ckpt-'));
  store = createStore({ path: join(dir, 'vtr.db') });
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const autocheckpoint = () => store.db.pragma('wal_autocheckpoint', { simple: true });

describe('checkpointer', () => {
  it('startCheckpointer: the server connection checkpoints less often and the worker copies its writes into the file', async () => {
    const c = startCheckpointer(store.db, store.path, WORKER);
    expect(autocheckpoint()).toBe(16_000);
    const before = statSync(store.path).size;
    const insert = store.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
    store.tx(() => {
      for (let i = 0; i < 2000; i++) insert.run(`k${i}`, 'x'.repeat(2000)); // ~1,500 pages: under the server's 16,000
    });
    await expect.poll(() => statSync(store.path).size, { timeout: 5000 }).toBeGreaterThan(before + 2000 * 2000);
    await c.stop();
    expect(autocheckpoint()).toBe(1000);
  });

  it('startCheckpointer: a worker that dies gives checkpoints back to the server connection', async () => {
    const broken = join(dir, 'broken-worker.mjs');
    writeFileSync(broken, 'throw new Error("no worker today");');
    const c = startCheckpointer(store.db, store.path, broken);
    await expect.poll(autocheckpoint, { timeout: 5000 }).toBe(1000);
    await c.stop();
  });

  it('startCheckpointer: under a flood of writes a long WAL starts over, long before the server connection would checkpoint it', async () => {
    const c = startCheckpointer(store.db, store.path, WORKER);
    const insert = store.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
    // The WAL header's checkpoint sequence (bytes 12-15) changes each time the WAL starts over.
    const walSeq = () => {
      const fd = openSync(`${store.path}-wal`, 'r');
      try {
        const b = Buffer.alloc(16);
        readSync(fd, b, 0, 16, 0);
        return b.readUInt32BE(12);
      } finally {
        closeSync(fd);
      }
    };
    let n = 0;
    // Two rows of 2,000 bytes to a page: ~4,500 pages, over the worker's 4,096.
    for (let t = 0; t < 3; t++) store.tx(() => {
      for (let i = 0; i < 3000; i++, n++) insert.run(`k${n}`, 'x'.repeat(2000));
    });
    const start = walSeq();
    // A commit every millisecond: no worker pass (a millisecond or more) ever finds nothing new.
    const flood = setInterval(() => insert.run(`k${n++}`, 'x'.repeat(100)), 1);
    try {
      await expect.poll(walSeq, { timeout: 8000, interval: 20 }).not.toBe(start);
    } finally {
      clearInterval(flood);
    }
    // Far fewer pages than the server connection's own 16,000 were ever in the WAL.
    expect(statSync(`${store.path}-wal`).size).toBeLessThan(8_000 * 4096);
    await c.stop();
  });

  it('startCheckpointer: once the WAL starts over after a checkpoint, its file is cut back to WAL_SIZE_LIMIT', async () => {
    const c = startCheckpointer(store.db, store.path, WORKER);
    const insert = store.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
    let n = 0;
    // Two rows of 2,000 bytes to a page: 48 MiB of WAL.
    store.tx(() => {
      for (let i = 0; i < 24_000; i++, n++) insert.run(`k${n}`, 'x'.repeat(2000));
    });
    const wal = () => statSync(`${store.path}-wal`).size;
    expect(wal()).toBeGreaterThan(1.4 * WAL_SIZE_LIMIT);
    // A small write now and then: the first one after the worker copied everything starts the WAL over.
    await expect.poll(() => (insert.run(`k${n++}`, 'y'), wal()), { timeout: 10_000, interval: 50 }).toBeLessThanOrEqual(WAL_SIZE_LIMIT);
    await c.stop();
  });
});

// The checkpoint worker (the built dist/checkpoint-worker.js, as `vtr serve` runs it) copies the
// WAL back into the database file while the server's connection no longer does; if it dies, the
// server's connection checkpoints again.
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createStore, type Store } from '../../src/store/index.js';
import { startCheckpointer } from '../../src/store/checkpointer.js';

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
});

// The write queue (src/server/write-queue.ts): one transaction per turn of the event loop, each
// write's promise settled only after the COMMIT, one write's failure never another's, and nothing
// reported as failed left written.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createStore, type Store } from '../../src/store/index.js';
import { createWriteQueue } from '../../src/server/write-queue.js';
import { tempDir } from '../helpers/vtr-process.js';

let store: Store;
beforeEach(() => {
  store = createStore({ path: join(tempDir('vtr-writes-'), 'vtr.db') });
  store.db.exec('CREATE TABLE t (k TEXT PRIMARY KEY)');
});
afterEach(() => store.close());

const rows = () => store.db.prepare<[], { k: string }>('SELECT k FROM t ORDER BY k').all().map((r) => r.k);
const put = (k: string) => () => store.db.prepare('INSERT INTO t (k) VALUES (?)').run(k).changes;

type Settled = { ok: true; value: unknown; inTransaction: boolean } | { ok: false; error: unknown; inTransaction: boolean };

/** Queues the writes in one turn; resolves with how each settled (and whether a transaction was still open then). */
function turn(writes: (() => unknown)[]): Promise<Settled[]> {
  const queue = createWriteQueue(store);
  return Promise.all(
    writes.map((w) =>
      queue.run(w).then(
        (value): Settled => ({ ok: true, value, inTransaction: store.inTransaction() }),
        (error): Settled => ({ ok: false, error, inTransaction: store.inTransaction() }),
      ),
    ),
  );
}

describe('write queue', () => {
  it('run: the turn\'s writes commit together and each settles after the COMMIT', async () => {
    const out = await turn([put('a'), put('b'), put('c')]);
    expect(out.map((o) => o.ok)).toEqual([true, true, true]);
    expect(out.map((o) => o.inTransaction)).toEqual([false, false, false]);
    expect(rows()).toEqual(['a', 'b', 'c']);
  });

  it('run: a failing write rejects with its error and the others are written', async () => {
    const out = await turn([put('a'), put('a'), () => { throw new Error('boom'); }, put('b')]);
    expect(out.map((o) => o.ok)).toEqual([true, false, false, true]);
    expect(String((out[1] as { error: unknown }).error)).toMatch(/UNIQUE/);
    expect(rows()).toEqual(['a', 'b']);
  });

  it('run: a write that writes twice in its own transaction and then fails leaves neither write', async () => {
    const both = () => store.tx(() => { put('x')(); put('a')(); }); // the second collides with the first write's row
    const out = await turn([put('a'), both, put('b')]);
    expect(out.map((o) => o.ok)).toEqual([true, false, true]);
    expect(rows()).toEqual(['a', 'b']);
  });

  it('run: when SQLite rolls the turn back, no write says it was written and the rest do not run', async () => {
    let ranAfter = false;
    const out = await turn([
      put('a'),
      () => { store.db.exec('ROLLBACK'); throw new Error('disk full'); }, // what SQLITE_FULL does to a transaction
      () => { ranAfter = true; return put('b')(); },
    ]);
    expect(out.map((o) => o.ok)).toEqual([false, false, false]);
    expect(ranAfter).toBe(false);
    expect(rows()).toEqual([]);
    // The next turn works as usual.
    expect((await turn([put('c')])).map((o) => o.ok)).toEqual([true]);
    expect(rows()).toEqual(['c']);
  });

  it('run: what a write announces goes out after the COMMIT, and nothing of a write that failed', async () => {
    const told: Array<{ what: string; inTransaction: boolean }> = [];
    const announcing = (what: string, write: () => unknown) => () => {
      store.afterCommit(() => told.push({ what, inTransaction: store.inTransaction() }));
      return write();
    };
    const both = () => store.tx(() => { store.afterCommit(() => told.push({ what: 'x', inTransaction: store.inTransaction() })); put('x')(); put('a')(); });
    const out = await turn([announcing('a', put('a')), announcing('dup', put('a')), both, announcing('b', put('b'))]);
    expect(out.map((o) => o.ok)).toEqual([true, false, false, true]);
    expect(told).toEqual([{ what: 'a', inTransaction: false }, { what: 'b', inTransaction: false }]);
  });

  it('run: when SQLite rolls the turn back, nothing written before is announced', async () => {
    const told: string[] = [];
    await turn([
      () => { store.afterCommit(() => told.push('a')); return put('a')(); },
      () => { store.db.exec('ROLLBACK'); throw new Error('disk full'); },
    ]);
    expect(told).toEqual([]);
  });
});

// The group commit (src/server/group-commit.ts): one transaction per turn of the event loop, each
// request's answer only after the COMMIT, one request's failure never another's, and nothing
// answered as failed left written.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createStore, type Store } from '../../src/store/index.js';
import { createGroupCommit, type Outcome } from '../../src/server/group-commit.js';

let dir: string;
let store: Store;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'vtr-group-'));
  store = createStore({ path: join(dir, 'vtr.db') });
  store.db.exec('CREATE TABLE t (k TEXT PRIMARY KEY)');
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const rows = () => store.db.prepare<[], { k: string }>('SELECT k FROM t ORDER BY k').all().map((r) => r.k);
const put = (k: string) => () => store.db.prepare('INSERT INTO t (k) VALUES (?)').run(k).changes;

/** Adds the jobs in one turn and resolves with their outcomes once all have answered. */
function turn(jobs: (() => unknown)[], seen: { inTransaction: boolean[] } = { inTransaction: [] }): Promise<Outcome[]> {
  const group = createGroupCommit(store);
  return new Promise((resolve) => {
    const out: Outcome[] = [];
    let left = jobs.length;
    jobs.forEach((run, i) =>
      group.add(run, (o) => {
        seen.inTransaction.push(store.inTransaction());
        out[i] = o;
        if (--left === 0) resolve(out);
      }),
    );
  });
}

describe('group commit', () => {
  it('add: the turn\'s writes commit together and each answer comes after the COMMIT', async () => {
    const seen = { inTransaction: [] as boolean[] };
    const out = await turn([put('a'), put('b'), put('c')], seen);
    expect(out.map((o) => o.ok)).toEqual([true, true, true]);
    expect(seen.inTransaction).toEqual([false, false, false]);
    expect(rows()).toEqual(['a', 'b', 'c']);
  });

  it('add: a failing request is answered with its error and the others are written', async () => {
    const out = await turn([put('a'), put('a'), () => { throw new Error('boom'); }, put('b')]);
    expect(out.map((o) => o.ok)).toEqual([true, false, false, true]);
    expect(String((out[1] as { error: unknown }).error)).toMatch(/UNIQUE/);
    expect(rows()).toEqual(['a', 'b']);
  });

  it('add: a request that writes twice in its own transaction and then fails leaves neither write', async () => {
    const both = () => store.tx(() => { put('x')(); put('a')(); }); // the second collides with the first request's row
    const out = await turn([put('a'), both, put('b')]);
    expect(out.map((o) => o.ok)).toEqual([true, false, true]);
    expect(rows()).toEqual(['a', 'b']);
  });

  it('add: when SQLite rolls the turn back, no request says it was written and the rest do not run', async () => {
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
});

import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createStore } from '../../src/store/index.js';
import { readStateDocument } from '../../src/state/document-stream.js';
import { tempDir } from '../helpers/vtr-process.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A process that has come and gone: its pid is no live process's. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await once(child, 'exit');
  expect(() => process.kill(child.pid!, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
  return child.pid!;
}

describe('store: staged import leftovers', () => {
  it('staged import: staging copies of a process that died are removed; those of live processes, and any written to in the last minute, stay', async () => {
    const dir = tempDir('vtr-staging-');
    dirs.push(dir);
    const store = createStore({ path: join(dir, 'vtr.db') });
    const alive = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      const dead = await deadPid();
      const gone = [`.vtr-import-${dead}-0a1b2c3d4e5f.db`, `.vtr-import-${dead}-0a1b2c3d4e5f.db-wal`, `.vtr-import-${dead}-0a1b2c3d4e5f.db-shm`, `.vtr-import-${dead}-99aa.db-journal`];
      const kept = [
        `.vtr-import-${alive.pid}-0a1b2c3d4e5f.db`,
        `.vtr-import-${alive.pid}-0a1b2c3d4e5f.db-journal`,
        // This process's own: an import still under way on another connection.
        `.vtr-import-${process.pid}-ffeeddccbbaa.db`,
        // Not a staging copy's name.
        `.vtr-import-${dead}.db`,
        `vtr-import-${dead}-0a1b2c3d4e5f.db`,
        `.vtr-import-${dead}-0a1b2c3d4e5f.db.bak`,
      ];
      // A pid this process cannot see (another container's) whose copy is still being written.
      const fresh = `.vtr-import-${dead}-5e5e5e.db`;
      const old = new Date(Date.now() - 5 * 60_000);
      for (const name of [...gone, ...kept]) {
        writeFileSync(join(dir, name), 'x');
        utimesSync(join(dir, name), old, old);
      }
      writeFileSync(join(dir, fresh), 'x');
      kept.push(fresh);

      const staged = store.state.staged();
      const text = JSON.stringify(store.state.export('2026-01-01T00:00:00.000000'));
      await readStateDocument((async function* () { yield text; })(), staged.sink);
      const { counts } = staged.commit();
      expect(counts.sites).toBe(0);

      for (const name of gone) expect(existsSync(join(dir, name)), name).toBe(false);
      for (const name of kept) expect(existsSync(join(dir, name)), name).toBe(true);
      // The import's own staging copy is gone as well.
      expect(readdirSync(dir).filter((n) => n.startsWith(`.vtr-import-${process.pid}-`))).toEqual([`.vtr-import-${process.pid}-ffeeddccbbaa.db`]);
    } finally {
      alive.kill();
      store.close();
    }
  });
});

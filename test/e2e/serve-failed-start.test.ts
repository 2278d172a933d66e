// A `vtr serve` that fails to start takes back the database files and directories it created
// itself (an empty, migrated database left behind would be taken for one), never anything the user
// had before.
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/vtr-process.js';
import { busyPort, closeBusyPorts } from '../helpers/busy-port.js';
import { isRoot, mountTmpfs, unmountAll } from '../helpers/tmpfs.js';

afterEach(async () => {
  await closeBusyPorts();
  unmountAll();
});

const badImport = (dir: string) => {
  const file = join(dir, 'future.json');
  writeFileSync(file, JSON.stringify({ vtr_state_version: 99, tables: {} }));
  return file;
};

describe('serve: a failed start', () => {
  it('serve --db a/b/vtr.db --import <refused file>: exit 1, and neither the database nor the directories made for it remain', async () => {
    const dir = tempDir();
    const r = await runCli(['serve', '--port', '0', '--db', join(dir, 'a', 'b', 'vtr.db'), '--import', badImport(dir)]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('vtr_state_version 99');
    expect(readdirSync(dir)).toEqual(['future.json']);
  });

  it('serve --db a/b/vtr.db --port <taken>: exit 1, and neither the database nor the directories made for it remain', async () => {
    const dir = tempDir();
    const r = await runCli(['serve', '--port', String(await busyPort()), '--db', join(dir, 'a', 'b', 'vtr.db')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('is in use');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('serve --import <refused file> on an existing database: the database and its directory stay, with what they held', async () => {
    const dir = tempDir();
    const db = join(dir, 'data', 'vtr.db');
    const first = await runCli(['serve', '--port', '0', '--db', db, '--import', badImport(dir)]);
    expect(first.code).toBe(1);
    // A database the user has: made by a start that worked, holding a site.
    const made = await runCli(['exec', '--db', db, '--', process.execPath, '-e', '']);
    expect(made.code).toBe(0);
    const r = await runCli(['serve', '--port', '0', '--db', db, '--import', badImport(dir)]);
    expect(r.code).toBe(1);
    expect(existsSync(db)).toBe(true);
    const sites = await runCli(['exec', '--db', db, '--', process.execPath, '-e', '']);
    expect(sites.code).toBe(0);
  });

  it.skipIf(!isRoot)('serve --import <file bigger than the disk>: exit 1 naming the full disk, and the database it created is gone', async () => {
    const dir = mountTmpfs('2m');
    if (!dir) return; // mounting refused (no CAP_SYS_ADMIN)
    const big = join(tempDir(), 'big.json');
    writeFileSync(big, JSON.stringify({ vtr_state_version: 1, schema_version: 1, tables: { meta: Array.from({ length: 40 }, (_, i) => ({ key: `k${i}`, value: 'x'.repeat(100_000) })) } }));
    const r = await runCli(['serve', '--port', '0', '--db', join(dir, 'vtr.db'), '--import', big]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('has no room for it');
    expect(readdirSync(dir)).toEqual([]);
  });
});

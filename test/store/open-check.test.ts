// Start-up checks of `--db` paths SQLite cannot keep a database at: kernel filesystems (/proc,
// /sys) and files that are not regular files (a device, a named pipe). Each is refused at once,
// naming the path and the option, instead of a bare "disk I/O error" or a start-up that never ends.
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { openDb } from '../../src/store/db.js';
import { tempDir } from '../helpers/vtr-process.js';

const linux = process.platform === 'linux' && existsSync('/proc/self/status');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('store: --db paths that cannot hold a database', () => {
  it.runIf(linux)('openDb: a new file in /proc is refused as a kernel filesystem, naming --db', () => {
    const t = Date.now();
    expect(() => openDb({ path: '/proc/vtr-test.db' })).toThrow('the database /proc/vtr-test.db is on proc, a kernel filesystem that cannot hold a database; give a file on a disk for --db, e.g. .vtr/vtr.db');
    expect(Date.now() - t).toBeLessThan(2000);
    expect(existsSync('/proc/vtr-test.db')).toBe(false);
  });

  it.runIf(linux)('openDb: an existing /proc file, and a directory to create under /proc, are refused the same way', () => {
    expect(() => openDb({ path: '/proc/self/status' })).toThrow('the database /proc/self/status is on proc, a kernel filesystem');
    expect(() => openDb({ path: '/proc/self/mem' })).toThrow('the database /proc/self/mem is on proc, a kernel filesystem');
    expect(() => openDb({ path: '/proc/vtr-missing/x.db' })).toThrow('the database /proc/vtr-missing/x.db is on proc, a kernel filesystem');
    expect(() => openDb({ path: '/sys/vtr.db', dbOption: "db (startEmulator's option)" })).toThrow("the database /sys/vtr.db is on sysfs, a kernel filesystem that cannot hold a database; give a file on a disk for db (startEmulator's option)");
  });

  it.runIf(linux)('openDb: a device or a named pipe is refused as not a regular file', () => {
    expect(() => openDb({ path: '/dev/null' })).toThrow('the database /dev/null is a character device, not a file; give a file for --db, e.g. .vtr/vtr.db');
    const dir = tempDir('vtr-store-');
    dirs.push(dir);
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    expect(() => openDb({ path: fifo })).toThrow(`the database ${fifo} is a named pipe (FIFO), not a file; give a file for --db, e.g. .vtr/vtr.db`);
  });
});

describe('openFailure', () => {
  it('openFailure: damage SQLite names with an extended code (SQLITE_CORRUPT_INDEX) is said as damage, with how to save the rows', async () => {
    const { openFailure } = await import('../../src/store/open-check.js');
    const err = Object.assign(new Error('database disk image is malformed'), { code: 'SQLITE_CORRUPT_INDEX' });
    expect(openFailure('/x/vtr.db', err, '--db', 5000).message).toMatch(/^the database \/x\/vtr\.db is damaged \(.*\); pass another --db .*sqlite3 \/x\/vtr\.db \.recover/);
  });
});

// Storage faults against the built binary on real filesystems. A full disk is a 2 MiB tmpfs; a
// read-only database is the same tmpfs remounted read-only after a SIGKILLed server left its
// -wal/-shm there. Mounting needs root with CAP_SYS_ADMIN: where that is missing, the read-only case
// falls back to chmod (effective for a non-root user), and the in-process tests
// (test/server/storage-faults.test.ts: max_page_count, query_only) cover the rest.
import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, closeSync, existsSync, mkdirSync, openSync, readdirSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CLI, runCli, startServer, tempDir, type ServerProcess } from '../helpers/vtr-process.js';
import { canMount, isRoot, mountTmpfs, unmountAll } from '../helpers/tmpfs.js';

// Root writes a file whatever its mode: permissions are tried as an unprivileged user (nobody).
const NOBODY = 65534;
const asUser = isRoot ? { uid: NOBODY, gid: NOBODY } : {};
const canRunAsUser = !isRoot || spawnSync(process.execPath, ['-e', `require('fs').accessSync(${JSON.stringify(CLI)})`], asUser).status === 0;

let server: ServerProcess | null = null;
afterEach(async () => {
  await server?.stop('SIGKILL');
  server = null;
  unmountAll();
});

/** Appends to `file` until the volume has no room left. */
function fillUp(file: string): void {
  const chunk = Buffer.alloc(4096);
  const fd = openSync(file, 'a');
  try {
    for (;;) writeSync(fd, chunk);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    closeSync(fd);
  }
}

async function until(what: string, fn: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await fn())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('storage faults (vtr serve)', () => {
  it.skipIf(!canMount)('serve: a full disk answers 507 with one log line, health degraded, and recovers when space is freed', async () => {
    // The filler is three times what the database gets before the disk fills: once it is removed,
    // a checkpoint can copy the whole WAL into the database file and the WAL can start over, so
    // recovery never depends on which of them gets the freed space first.
    const dir = mountTmpfs('4m')!;
    const filler = join(dir, 'filler');
    writeFileSync(filler, Buffer.alloc(3 * 1024 * 1024));
    const db = join(dir, 'vtr.db');
    // -q silences hints and the request log, never a fault line.
    server = await startServer(['--db', db, '-q']);
    const secret = server.defaultSite!.secret_key;
    const post = (i: number) =>
      fetch(`${server!.baseUrl}/event`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ secret_key: secret, email: `v${i}-${'x'.repeat(500)}@example.com` }) });
    let full: Response | null = null;
    for (let i = 0; i < 20_000 && !full; i++) {
      const r = await post(i);
      if (r.status === 507) full = r;
      else expect(r.status).toBe(200);
    }
    expect(full, 'the disk never filled').not.toBeNull();
    // What is left is taken too: a checkpoint that found room to grow the database file could let
    // the WAL start over and a small write through, and the disk would no longer be full.
    const topUp = join(dir, 'top-up');
    fillUp(topUp);
    const body = (await full!.json()) as { code: string; message: string };
    expect(body.code).toBe('insufficient_storage');
    expect(body.message).toContain(db);
    // A checkpoint may still let the WAL start over, and writes that fit in its reused space are
    // committed (200): the disk is full once every write is refused, 50 in a row.
    let refusedInARow = 0;
    for (let i = 0; i < 5_000 && refusedInARow < 50; i++) {
      const status = (await post(i)).status;
      expect([200, 507]).toContain(status);
      refusedInARow = status === 507 ? refusedInARow + 1 : 0;
    }
    expect(refusedInARow, 'writes were still committed after the disk filled').toBe(50);
    const health = await fetch(`${server.origin}/_vtr/health`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ status: 'degraded', code: 'insufficient_storage', db });
    // The CLI shows it too: exit 1 with the reason.
    const cli = await runCli(['health'], { env: server.env });
    expect(cli.code).toBe(1);
    expect(cli.stdout).toMatch(/status:\s+degraded/);
    expect(cli.stderr).toContain('the emulator is degraded: ');
    expect(cli.stderr).toContain(db);
    const faultLines = () => server!.stderr().split('\n').filter((l) => !/ (GET|POST) /.test(l)).join('\n');
    const failing = server.stderr().split('\n').filter((l) => l.includes('are failing'));
    // One line per fault, not per request: 50+ refused writes. On a nearly full volume a small
    // write (a request-log batch) may still fit between two large ones: that turn is the same fault.
    expect(failing.length, faultLines()).toBe(1);
    expect(failing[0]).toContain(db);
    expect(server.stderr(), faultLines()).not.toMatch(/^\s+at /m);
    // Space comes back: health recovers by itself (the probe write), writes work again.
    rmSync(filler);
    rmSync(topUp);
    await until('health ok', async () => (await fetch(`${server!.origin}/_vtr/health`)).status === 200).catch((err: Error) => {
      throw new Error(`${err.message}; stderr:\n${server!.stderr().split('\n').filter((l) => !/ (GET|POST) /.test(l)).join('\n')}`);
    });
    expect((await post(0)).status).toBe(200);
    // The last fault line says writes work again (after turns of failing and working, once they held 10 s).
    await until('the recovery line', async () => /work again/.test(faultLines().trim().split('\n').at(-1) ?? ''), 20_000);
    expect(faultLines().split('\n').filter((l) => l.includes('are failing'))).toHaveLength(1);
  }, 120_000);

  it.skipIf(isRoot && !canMount)('serve: refuses a database it cannot write (left with -wal/-shm by a kill), exit 1, naming the file and the cause', async () => {
    const dir = canMount ? mountTmpfs('8m')! : join(tempDir(), 'data');
    if (!canMount) mkdirSync(dir);
    const db = join(dir, 'vtr.db');
    server = await startServer(['--db', db]);
    await server.stop('SIGKILL');
    server = null;
    expect(existsSync(`${db}-wal`)).toBe(true);
    if (canMount) {
      // Produced by remounting the tmpfs read-only: refused for root too.
      execFileSync('mount', ['-o', 'remount,ro', dir]);
    } else {
      // Produced by permissions, for a user that is not root.
      for (const f of [db, `${db}-wal`, `${db}-shm`]) if (existsSync(f)) chmodSync(f, 0o444);
      chmodSync(dir, 0o555);
    }
    try {
      const r = await runCli(['serve', '--db', db, '--port', '0']);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`the database ${db} cannot be written`);
      expect(r.stderr).toMatch(canMount ? /read-only \(EROFS\)/ : /permission denied/);
      expect(r.stderr).not.toMatch(/unable to open database file$/m);
    } finally {
      if (!canMount) chmodSync(dir, 0o755);
    }
  }, 60_000);

  it.skipIf(!canRunAsUser)('serve: a read-only database refused at start starts once made writable, with no read-only -wal/-shm left behind', async () => {
    const dir = join(tempDir(), 'data');
    mkdirSync(dir);
    const db = join(dir, 'vtr.db');
    server = await startServer(['--db', db]);
    await server.stop();
    server = null;
    if (isRoot) {
      chmodSync(dirname(dir), 0o755);
      for (const f of [dir, db]) chownSync(f, NOBODY, NOBODY);
    }
    chmodSync(db, 0o444);
    const refused = await runCli(['serve', '--db', db, '--port', '0'], asUser);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(`vtr: error: the database ${db} cannot be written: ${db}: permission denied (EACCES); make it writable by this user, or pass another --db\n`);
    expect(existsSync(`${db}-shm`) || existsSync(`${db}-wal`)).toBe(false);
    // The user does as told: the next start works.
    chmodSync(db, 0o644);
    const started = await runCli(['exec', '--db', db, '--', process.execPath, '-e', '0'], asUser);
    expect(started.stderr).toBe('');
    expect(started.code).toBe(0);
  }, 60_000);

  it.skipIf(!canMount)('serve: a start refused on a full disk leaves no database files it created; a database that was there stays', async () => {
    const dir = mountTmpfs('2m')!;
    const kept = join(dir, 'kept.db');
    await (await startServer(['--db', kept, '-q'])).stop();
    const before = readdirSync(dir).sort();
    fillUp(join(dir, 'fill'));
    const db = join(dir, 'vtr.db');
    const r = await runCli(['serve', '--db', db, '--port', '0']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`the database ${db} cannot be written: its disk is full`);
    expect(readdirSync(dir).sort()).toEqual([...before, 'fill'].sort());
    const again = await runCli(['serve', '--db', kept, '--port', '0']);
    expect(again.code).toBe(1);
    expect(readdirSync(dir).sort()).toEqual([...before, 'fill'].sort());
  }, 60_000);

  it.runIf(process.platform === 'linux')('serve: a start whose default site finds no room is refused in the words of a start, not of a request', async () => {
    // The size a first start's WAL reaches, less 1 KiB as the file size limit: the open and its
    // write check fit, the default site's commit does not.
    const dir = tempDir();
    const first = await startServer(['--db', join(dir, 'first.db'), '-q']);
    await first.stop('SIGKILL');
    const limitKb = Math.floor(statSync(join(dir, 'first.db-wal')).size / 1024) - 1;
    const db = join(dir, 'vtr.db');
    // bash counts `ulimit -f` in KiB (sh may count 512-byte blocks).
    const r = spawnSync('bash', ['-c', `ulimit -f ${limitKb}; exec "$0" "$@"`, process.execPath, CLI, 'serve', '--db', db, '--port', '0'], { encoding: 'utf8', timeout: 30_000 });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^vtr: error: the database ${db} cannot be written: its disk is full \\(SQLITE_IOERR_WRITE: [^)]*\\); free space on that volume, or pass another --db\n$`));
    expect(existsSync(db)).toBe(false);
  }, 60_000);

  it.skipIf(!canMount)('serve --import: a file the disk has no room for is refused naming the database and the full disk, not the file', async () => {
    const seed = await startServer(['--memory', '-q']);
    const simulated = await runCli(['sessions', 'simulate', '--count', '1000', '--seed', '1'], { env: seed.env });
    expect(simulated.code, simulated.stderr).toBe(0);
    const file = join(tempDir(), 'state.json');
    expect((await runCli(['state', 'export', file], { env: seed.env })).code).toBe(0);
    await seed.stop();
    const dir = mountTmpfs('1m')!;
    const db = join(dir, 'vtr.db');
    const r = await runCli(['serve', '--db', db, '--port', '0', '--import', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`--import ${file}: the database ${db} has no room for it: its disk (or the file's size limit) is full (SQLITE_FULL); nothing was imported`);
    expect(r.stderr).not.toMatch(/do not fit together|^\s+at /m);
  }, 60_000);

  it('serve: a directory that cannot be created is named, exit 1', async () => {
    const file = join(tempDir(), 'not-a-dir');
    writeFileSync(file, '');
    const r = await runCli(['serve', '--db', join(file, 'vtr.db'), '--port', '0']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`cannot create the directory ${file}`);
  });

  it.runIf(process.platform === 'linux')('serve: a --db under /proc is refused as a kernel filesystem before SQLite opens it, exit 1', async () => {
    for (const db of ['/proc/vtr-test.db', '/proc/vtr-missing/vtr.db', '/proc/self/status']) {
      const r = await runCli(['serve', '--db', db, '--port', '0'], { timeoutMs: 10_000 });
      expect(r.code, `${db}: ${r.stderr}`).toBe(1);
      expect(r.stderr).toBe(`vtr: error: the database ${db} is on proc, a kernel filesystem that cannot hold a database; give a file on a disk for --db, e.g. .vtr/vtr.db\n`);
    }
  }, 40_000);
});

// What a library user catches: every error class startEmulator and its clock throw is exported.
import { describe, expect, it } from 'vitest';
import { ClockError, startEmulator, VtrError } from '../../src/index.js';
import { tempDir } from '../helpers/vtr-process.js';

describe('library errors', () => {
  it('clock: a refused move rejects with the exported ClockError, named as such', async () => {
    const emu = await startEmulator({ listen: false });
    const frozen = await startEmulator({ clock: 'frozen', listen: false });
    try {
      const system = await emu.clock.advance('1h').catch((e: unknown) => e);
      expect(system).toBeInstanceOf(ClockError);
      expect(system).toMatchObject({ name: 'ClockError' });
      const back = await frozen.clock.set('2001-01-01T00:00:00Z').catch((e: unknown) => e);
      expect(back).toBeInstanceOf(ClockError);
      expect((back as Error).message).toMatch(/only moves forward/);
      // Both times, and the way back in the library's words.
      const target = await frozen.clock.set('2999-01-01T00:00:00Z');
      expect(target).toBeUndefined();
      const behind = await frozen.clock.set('2998-06-01T12:00:00Z').catch((e: unknown) => e);
      expect(behind).toBeInstanceOf(ClockError);
      expect((behind as Error).message).toBe(
        "emu.clock.set: 2998-06-01 12:00:00 UTC is before the clock's current time, 2999-01-01 00:00:00 UTC (emulated): the clock only moves forward, and emu.reset() keeps it. " +
          "To go back, start the emulator again on a new database (a new startEmulator({ clock: 'frozen' }), with no db or another one): its clock starts at the real time, then emu.clock.set() it.",
      );
    } finally {
      await emu.close();
      await frozen.close();
    }
  });

  it('clock: a system clock refuses advance and set each named first, as their other refusals are', async () => {
    const emu = await startEmulator({ listen: false });
    try {
      const advance = await emu.clock.advance('1h').catch((e: unknown) => e);
      expect(advance).toBeInstanceOf(ClockError);
      expect((advance as Error).message).toMatch(/^emu\.clock\.advance: the clock is in system mode .*startEmulator\(\{ clock: 'frozen' \}\)/);
      const set = await emu.clock.set('2999-01-01T00:00:00Z').catch((e: unknown) => e);
      expect(set).toBeInstanceOf(ClockError);
      expect((set as Error).message).toMatch(/^emu\.clock\.set: the clock is in system mode /);
    } finally {
      await emu.close();
    }
  });

  it('startEmulator: a database of a newer vtr rejects with the exported VtrError and its code', async () => {
    const { join } = await import('node:path');
    const Database = (await import('better-sqlite3')).default;
    const db = join(tempDir('vtr-errors-'), 'new.db');
    const raw = new Database(db);
    raw.pragma('user_version = 9999');
    raw.close();
    const err = await startEmulator({ db, listen: false }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VtrError);
    expect(err).toMatchObject({ code: 'schema_too_new' });
  });
});

describe('startEmulator: a start that fails has a code to tell it by', () => {
  const refusal = (opts: Parameters<typeof startEmulator>[0]) => startEmulator(opts).then(() => { throw new Error('started'); }, (e: unknown) => e as VtrError);

  it('startEmulator: a file that is not SQLite rejects with VtrError database_not_sqlite, its message as before', async () => {
    const { join } = await import('node:path');
    const { writeFileSync } = await import('node:fs');
    const db = join(tempDir('vtr-errors-'), 'notes.txt');
    writeFileSync(db, 'this is not sqlite'.repeat(100));
    const err = await refusal({ db, listen: false });
    expect(err).toBeInstanceOf(VtrError);
    expect(err).toMatchObject({ code: 'database_not_sqlite', message: `${db} is not a SQLite database vtr can read (SQLITE_NOTADB: file is not a database); pass another db (startEmulator's option), or move this file away` });
  });

  it('startEmulator: a SQLite file of another program rejects with VtrError database_foreign', async () => {
    const { join } = await import('node:path');
    const Database = (await import('better-sqlite3')).default;
    const db = join(tempDir('vtr-errors-'), 'app.db');
    const raw = new Database(db);
    raw.exec('CREATE TABLE users (id INTEGER)');
    raw.close();
    const err = await refusal({ db, listen: false });
    expect(err).toBeInstanceOf(VtrError);
    expect(err).toMatchObject({ code: 'database_foreign' });
    expect(err.message).toMatch(/is a SQLite database of another program \(tables: users\)/);
  });

  it('startEmulator: a directory rejects with VtrError database_is_directory, with or without a trailing slash', async () => {
    const dir = tempDir('vtr-errors-');
    for (const db of [dir, `${dir}/`]) {
      const err = await refusal({ db, listen: false });
      expect(err).toBeInstanceOf(VtrError);
      expect(err).toMatchObject({ code: 'database_is_directory' });
      expect(err.message).toMatch(/^the database .* (is|ends in \/,) a directory; give a file for db \(startEmulator's option\), e\.g\. /);
    }
  });

  it('startEmulator: a damaged vtr database rejects with VtrError database_corrupt', async () => {
    const { join } = await import('node:path');
    const { truncateSync } = await import('node:fs');
    const db = join(tempDir('vtr-errors-'), 'cut.db');
    const emu = await startEmulator({ db, listen: false });
    await emu.close();
    const Database = (await import('better-sqlite3')).default;
    const raw = new Database(db);
    raw.exec('CREATE TABLE filler (x BLOB)');
    raw.prepare('INSERT INTO filler VALUES (zeroblob(200000))').run();
    raw.close();
    truncateSync(db, 100_000);
    const err = await refusal({ db, listen: false });
    expect(err).toBeInstanceOf(VtrError);
    expect(err).toMatchObject({ code: 'database_corrupt' });
    expect(err.message).toMatch(/^the database .* is damaged \(SQLITE_CORRUPT: database disk image is malformed\); pass another db \(startEmulator's option\) /);
  });

  it('startEmulator: a database another process keeps locked rejects with VtrError database_busy', async () => {
    const { join } = await import('node:path');
    const Database = (await import('better-sqlite3')).default;
    const db = join(tempDir('vtr-errors-'), 'locked.db');
    await (await startEmulator({ db, listen: false })).close();
    const other = new Database(db);
    other.exec('BEGIN IMMEDIATE');
    try {
      const err = await refusal({ db, listen: false });
      expect(err).toBeInstanceOf(VtrError);
      expect(err).toMatchObject({ code: 'database_busy' });
      expect(err.message).toMatch(/^the database .* is locked: another process is writing to it /);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
  }, 20_000);

  it('startEmulator: a port in use rejects with VtrError port_in_use, its message and cause as before', async () => {
    const a = await startEmulator({ port: 42201 });
    try {
      const port = Number(new URL(a.baseUrl).port);
      const err = await refusal({ port });
      expect(err).toBeInstanceOf(VtrError);
      expect(err).toMatchObject({ code: 'port_in_use', message: `startEmulator: port ${port} on 127.0.0.1 is in use; leave port out (or 0) for a free one` });
      expect(err.cause).toMatchObject({ code: 'EADDRINUSE' });
    } finally {
      await a.close();
    }
  });

  it('startEmulator: a host of no interface of this machine rejects with VtrError host_unavailable', async () => {
    // 192.0.2.0/24 is reserved for documentation: no machine has it.
    const err = await refusal({ host: '192.0.2.1', adminToken: 't' });
    expect(err).toBeInstanceOf(VtrError);
    expect(err).toMatchObject({ code: 'host_unavailable' });
  });
});

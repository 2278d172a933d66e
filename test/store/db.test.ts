import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openDb } from '../../src/store/db.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/store/migrations.js';
import { createStore } from '../../src/store/index.js';
import { VtrError } from '../../src/domain/errors.js';
import { createEmulator } from '../../src/emulator.js';
import { tempDir } from '../helpers/vtr-process.js';

const dirs: string[] = [];
const dbFile = (name = 'vtr.db') => {
  const d = tempDir('vtr-store-');
  dirs.push(d);
  return join(d, name);
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('store: schema', () => {
  it('openDb: a new database is migrated to the current schema version', () => {
    expect(SCHEMA_VERSION).toBe(MIGRATIONS.length);
    expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(1);
    const path = dbFile();
    const db = openDb({ path });
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map((t) => t.name);
      expect(tables).toEqual(expect.arrayContaining(['meta', 'sites', 'access_tokens', 'sessions', 'probes']));
    } finally {
      db.close();
    }
  });

  it("openDb: refuses another program's SQLite database, naming its tables, and leaves it as it was", () => {
    for (const version of [0, 3]) {
      const path = dbFile(`app-${version}.db`);
      const app = new Database(path);
      app.exec("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO users (name) VALUES ('alice')");
      app.pragma(`user_version = ${version}`);
      app.close();
      expect(() => openDb({ path }), `user_version ${version}`).toThrow(`${path} is a SQLite database of another program (tables: users); vtr keeps its state in a file of its own: pass another --db (a new file is created)`);
      const after = new Database(path);
      const tables = (after.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map((t) => t.name);
      expect(tables).toEqual(['users']);
      expect(after.pragma('journal_mode', { simple: true })).toBe('delete');
      after.close();
    }
  });

  it('openDb: creates missing parent directories', () => {
    const path = join(dbFile(), '..', 'nested', 'deeper', 'vtr.db');
    openDb({ path }).close();
    expect(existsSync(path)).toBe(true);
  });

  it('openDb: reopening an up-to-date database runs no migration again', () => {
    const path = dbFile();
    openDb({ path }).close();
    const db = openDb({ path });
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    } finally {
      db.close();
    }
  });

  it('openDb: a database from a newer vtr is refused with schema_too_new naming the file, and left as it was', () => {
    const path = dbFile();
    const raw = new Database(path);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 5}`);
    raw.exec('CREATE TABLE future (x INTEGER)');
    raw.close();
    let err: unknown;
    try {
      openDb({ path }).close();
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(VtrError);
    expect((err as VtrError).code).toBe('schema_too_new');
    // Named, so a job with several databases (or the default .vtr/vtr.db) knows which one.
    expect((err as VtrError).message).toBe(`the database ${path} has schema version ${SCHEMA_VERSION + 5}, but this vtr understands up to ${SCHEMA_VERSION}; upgrade vtr or use another --db`);
    const again = new Database(path);
    try {
      expect(again.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION + 5);
      expect(again.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'sites'").get()).toEqual({ n: 0 });
    } finally {
      again.close();
    }
  });

  it('createEmulator: a too-new database is refused at start', () => {
    const path = dbFile();
    const raw = new Database(path);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    expect(() => createEmulator({ dbPath: path })).toThrow(/schema version/);
  });

  it('openDb: a file database runs in WAL mode with foreign keys on', () => {
    const db = openDb({ path: dbFile() });
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(db.pragma('busy_timeout', { simple: true })).toBeGreaterThan(0);
    } finally {
      db.close();
    }
  });

  it('openDb: a file that is not a database is refused with an error', () => {
    const path = dbFile();
    const raw = new Database(path);
    raw.close();
    // overwrite with junk
    writeFileSync(path, 'this is not sqlite'.repeat(100));
    expect(() => openDb({ path })).toThrow();
  });
});

describe('store: damaged files', () => {
  it('openDb: a vtr database cut short (an interrupted copy) is named as damaged, with how to recover, not as some other file', () => {
    const path = dbFile();
    const db = openDb({ path });
    db.exec('CREATE TABLE filler (x BLOB)');
    db.prepare('INSERT INTO filler VALUES (zeroblob(200000))').run();
    db.close();
    truncateSync(path, 100_000);
    expect(() => openDb({ path })).toThrow(
      `the database ${path} is damaged (SQLITE_CORRUPT: database disk image is malformed); pass another --db (a state export loads with --import), or move this file away: \`sqlite3 ${path} .recover\` may save the rows that can still be read`,
    );
  });

  it('openDb: a database another process keeps locked is refused naming the file, the lock and what to do', () => {
    const path = dbFile();
    openDb({ path }).close();
    const other = new Database(path);
    other.exec('BEGIN IMMEDIATE');
    try {
      expect(() => openDb({ path })).toThrow(
        `the database ${path} is locked: another process is writing to it and kept its write lock for over 5 s (SQLITE_BUSY: database is locked); start again once it is done, or pass another --db`,
      );
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
  }, 20_000);

  it('openDb: a file that is not SQLite at all is named as such', () => {
    const path = dbFile();
    writeFileSync(path, 'this is not sqlite'.repeat(100));
    expect(() => openDb({ path })).toThrow(`${path} is not a SQLite database vtr can read (SQLITE_NOTADB: file is not a database); pass another --db, or move this file away`);
  });
});

describe('store: durability', () => {
  it('createStore: reopening a file keeps sites, tokens and sessions', async () => {
    const path = dbFile();
    const first = createEmulator({ dbPath: path });
    const boot = first.bootstrap!;
    expect(boot).not.toBeNull();
    const other = first.deps.sites.create({ name: 'Second', plan: 'free', excluded_countries: ['de'] });
    const session = first.deps.sessions.recordPageView(boot.site, { url: 'https://a.test/?gclid=k', ip: '203.0.113.2', fingerprint: 'fp_1' }).session;
    first.deps.sessions.addCustomEvent(session.session_id, boot.site.site_id, 'signup');
    const revoked = first.deps.sites.tokens.create(other.site_id);
    first.deps.sites.tokens.revoke(revoked.token);
    await first.close();

    const second = createEmulator({ dbPath: path });
    try {
      expect(second.bootstrap).toBeNull(); // no second default site
      expect(second.deps.sites.list().map((s) => s.site_id)).toEqual([boot.site.site_id, other.site_id]);
      expect(second.deps.sites.get(other.site_id)).toEqual(other);
      expect(second.deps.sites.siteForToken(boot.token.token)?.site_id).toBe(boot.site.site_id);
      expect(second.deps.sites.siteForToken(revoked.token)).toBeNull();
      const back = second.deps.sessions.get(session.session_id, boot.site.site_id);
      expect(back.custom_events).toEqual(['signup']);
      expect(back).toMatchObject({ channel: 'paid', source_id: 'k', risk_level: 'invalid', country_code: 'DE' });
      // the visitor continues the same session after the restart
      const cont = second.deps.sessions.recordPageView(second.deps.sites.get(boot.site.site_id), { url: 'https://a.test/2', ip: '203.0.113.2', fingerprint: 'fp_1' }).session;
      expect(cont.session_id).toBe(session.session_id);
      expect(cont.page_views).toBe(2);
    } finally {
      await second.close();
    }
  });

  it('createStore: an in-memory store keeps nothing', async () => {
    const a = createStore({ path: ':memory:' });
    a.meta.set('k', 'v');
    expect(a.meta.get('k')).toBe('v');
    a.close();
    const b = createStore({ path: ':memory:' });
    expect(b.meta.get('k')).toBeNull();
    expect(b.sites.count()).toBe(0);
    b.close();
  });

  it('tx: a failing transaction writes nothing', () => {
    const store = createStore({ path: dbFile() });
    try {
      expect(() =>
        store.tx(() => {
          store.meta.set('a', '1');
          throw new Error('stop');
        }),
      ).toThrow('stop');
      expect(store.meta.get('a')).toBeNull();
      store.tx(() => store.meta.set('a', '2'));
      expect(store.meta.get('a')).toBe('2');
    } finally {
      store.close();
    }
  });

  it('close: closing twice is harmless', () => {
    const store = createStore({ path: dbFile() });
    store.close();
    expect(() => store.close()).not.toThrow();
  });
});

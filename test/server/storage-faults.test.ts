// Storage faults over real HTTP on a real database file. A full disk is SQLite's own SQLITE_FULL,
// produced by `PRAGMA max_page_count` set to the file's current size (the database cannot grow by a
// page, as on a full volume; raising it again is the freed space). A database that cannot be written
// is SQLite's own SQLITE_READONLY, produced by `PRAGMA query_only` on the server's connection (chmod
// does not stop root, and CI runs as root); at start-up, by opening the file read-only.
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { closeSync, existsSync, fstatSync, openSync, rmSync, writeSync } from 'node:fs';
import { createEmulator } from '../../src/emulator.js';
import { tempDir } from '../helpers/vtr-process.js';

type Emu = ReturnType<typeof createEmulator>;
let emu: Emu | null = null;

afterEach(async () => {
  await emu?.close();
  emu = null;
});

async function serve(dbPath = join(tempDir(), 'vtr.db')) {
  const lines: string[] = [];
  emu = createEmulator({ dbPath, faultLog: (l) => lines.push(l) });
  const { port } = await emu.listen(0, '127.0.0.1');
  const origin = `http://127.0.0.1:${port}`;
  const secret = emu.bootstrap?.site.secret_key; // none on a second start
  const post = async (body: Record<string, unknown>) => {
    const r = await fetch(`${origin}/api/v1/event`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ secret_key: secret, ...body }) });
    return { status: r.status, body: (await r.json()) as Record<string, any> };
  };
  const get = async (path: string) => {
    const r = await fetch(`${origin}${path}`);
    return { status: r.status, body: (await r.json()) as Record<string, any> };
  };
  return { emu: emu!, lines, post, get, dbPath, origin };
}

const pages = (e: Emu) => e.store.db.pragma('page_count', { simple: true }) as number;
const checkCount = (e: Emu) => (e.store.db.prepare('SELECT count(*) AS n FROM checks').get() as { n: number }).n;

async function until(what: string, fn: () => Promise<boolean> | boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await fn())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('storage faults', () => {
  it('full disk: writes answer 507 naming the file, one log line, health degraded, reads work, then recovery', async () => {
    const s = await serve();
    expect((await s.post({ email: 'first@example.com' })).status).toBe(200);
    const before = checkCount(s.emu);
    s.emu.store.db.pragma(`max_page_count = ${pages(s.emu)}`);
    // Each check needs room; a few hundred fill the last pages.
    let full: { status: number; body: Record<string, any> } | null = null;
    let ok = 0;
    for (let i = 0; i < 2000 && !full; i++) {
      const r = await s.post({ email: `v${i}-${'x'.repeat(200)}@example.com` });
      if (r.status === 507) full = r;
      else if (r.status === 200) ok++;
      else throw new Error(`unexpected ${r.status}: ${JSON.stringify(r.body)}`);
    }
    expect(full, 'no write ever hit the page limit').not.toBeNull();
    expect(full!.body).toMatchObject({ code: 'insufficient_storage', db: s.dbPath });
    expect(full!.body.message).toContain(s.dbPath);
    expect(full!.body.message).toMatch(/Free space/);
    // Nothing of the refused requests was written; every acknowledged one was.
    for (let i = 0; i < 20; i++) expect((await s.post({ email: `again${i}-${'x'.repeat(200)}@example.com` })).status).toBe(507);
    expect(checkCount(s.emu)).toBe(before + ok);
    // Reads keep working.
    const sites = await s.get('/_vtr/api/sites');
    expect(sites.status).toBe(200);
    const health = await s.get('/_vtr/health');
    expect(health.status).toBe(503);
    expect(health.body).toMatchObject({ status: 'degraded', code: 'insufficient_storage', db: s.dbPath });
    expect(health.body.reason).toContain(s.dbPath);
    // The health check wrote nothing: its reason speaks of the writes refused, not of "this request".
    expect(health.body.reason).not.toMatch(/this request/i);
    expect(health.body.reason).toMatch(/writing requests answer 507 insufficient_storage, with nothing written/i);
    expect(health.body.failed_writes).toBeGreaterThanOrEqual(21);
    // One line for 21+ failures (the request log's own failed writes included), no stack trace.
    const faultLines = s.lines.filter((l) => l.includes('are failing'));
    expect(faultLines).toHaveLength(1);
    expect(faultLines[0]).toContain(s.dbPath);
    expect(faultLines[0]).toContain('SQLITE_FULL');
    expect(s.lines.join('\n')).not.toMatch(/\n\s+at /);
    // Space comes back: the next write succeeds, health says ok, one recovery line.
    s.emu.store.db.pragma('max_page_count = 1073741823');
    expect((await s.post({ email: 'back@example.com' })).status).toBe(200);
    expect((await s.get('/_vtr/health'))).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(s.lines.filter((l) => l.includes('work again'))).toHaveLength(1);
  }, 60_000);

  it('health: recovers without any request once space is back (the probe write)', async () => {
    const s = await serve();
    s.emu.store.db.pragma(`max_page_count = ${pages(s.emu)}`);
    await until('a 507', async () => (await s.post({ email: `${'y'.repeat(300)}@example.com` })).status === 507);
    expect((await s.get('/_vtr/health')).status).toBe(503);
    s.emu.store.db.pragma('max_page_count = 1073741823');
    await until('health ok', async () => (await s.get('/_vtr/health')).status === 200);
    expect(s.lines.filter((l) => l.includes('work again'))).toHaveLength(1);
  }, 60_000);

  it('read-only database: writes answer 503 database_read_only naming the file; reads and health say so', async () => {
    const s = await serve();
    const before = checkCount(s.emu);
    s.emu.store.db.pragma('query_only = ON');
    const r = await s.post({ email: 'ro@example.com' });
    expect(r.status).toBe(503);
    expect(r.body).toMatchObject({ code: 'database_read_only', db: s.dbPath });
    expect(r.body.message).toContain(s.dbPath);
    expect(r.body.message).toMatch(/writable/);
    const session = await fetch(`${s.origin}/_vtr/api/sites/${s.emu.bootstrap!.site.site_id}/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(session.status).toBe(503);
    expect((await s.get('/_vtr/api/sites')).status).toBe(200);
    const health = await s.get('/_vtr/health');
    expect(health).toMatchObject({ status: 503, body: { status: 'degraded', code: 'database_read_only' } });
    expect(health.body.reason).not.toMatch(/this request/i);
    expect(s.lines.filter((l) => l.includes('are failing'))).toHaveLength(1);
    // The console says so on every page.
    const page = await (await fetch(`${s.origin}/_vtr/console/sessions`)).text();
    expect(page).toContain('id="health-degraded"');
    expect(page).toContain('cannot be written');
    s.emu.store.db.pragma('query_only = OFF');
    expect(checkCount(s.emu)).toBe(before);
  });

  it('removed database: once its directory is removed under the server, writes answer 503 database_read_only instead of being acknowledged and lost', async () => {
    const dir = join(tempDir(), 'state');
    const s = await serve(join(dir, 'vtr.db'));
    expect((await s.post({ email: 'before@example.com' })).status).toBe(200);
    rmSync(dir, { recursive: true, force: true });
    const r = await s.post({ email: 'after@example.com' });
    expect(r.status).toBe(503);
    expect(r.body).toMatchObject({ code: 'database_read_only', db: s.dbPath, cause: 'SQLITE_READONLY_DBMOVED' });
    expect(r.body.message).toMatch(/was removed or replaced while vtr was running.*Restart vtr/);
    const view = await fetch(`${s.origin}/_vtr/api/sites/${s.emu.bootstrap!.site.site_id}/views`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'v', filter: 'channel = paid' }),
    });
    expect(view.status).toBe(503);
    expect((await s.get('/_vtr/api/sites')).status).toBe(200);
    expect(await s.get('/_vtr/health')).toMatchObject({ status: 503, body: { status: 'degraded', code: 'database_read_only' } });
    const failing = s.lines.filter((l) => l.includes('are failing'));
    expect(failing).toHaveLength(1);
    expect(failing[0]).toMatch(/removed or replaced.*Restart vtr/);
    expect(s.lines.join('\n')).not.toMatch(/work again|\n\s+at /);
  });

  it('state import: a full disk answers 507 insufficient_storage naming the file, not a fault of the file; nothing changes', async () => {
    const source = await serve();
    const site = source.emu.bootstrap!.site.site_id;
    const simulated = await fetch(`${source.origin}/_vtr/api/sites/${site}/sessions/simulate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ count: 300, seed: 1 }) });
    expect(simulated.status).toBe(201);
    const doc = await (await fetch(`${source.origin}/_vtr/api/state`)).text();
    await source.emu.close();
    const s = await serve();
    s.emu.store.db.pragma(`max_page_count = ${pages(s.emu)}`);
    const put = await fetch(`${s.origin}/_vtr/api/state`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: doc });
    const body = (await put.json()) as Record<string, any>;
    expect(put.status, JSON.stringify(body)).toBe(507);
    expect(body).toMatchObject({ code: 'insufficient_storage', db: s.dbPath });
    expect(body.message).not.toMatch(/do not fit together/);
    expect(s.lines.filter((l) => l.includes('are failing'))).toHaveLength(1);
    expect((await s.get('/_vtr/api/sites')).body.map((x: { site_id: string }) => x.site_id)).toEqual([s.emu.bootstrap!.site.site_id]);
    s.emu.store.db.pragma('max_page_count = 1073741823');
  }, 60_000);

  it('damaged database: a read or write that reaches a damaged page answers 503 database_corrupt naming the file, one log line, health degraded', async () => {
    const source = await serve();
    const site = source.emu.bootstrap!.site.site_id;
    const simulated = await fetch(`${source.origin}/_vtr/api/sites/${site}/sessions/simulate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ count: 300, seed: 1 }) });
    expect(simulated.status).toBe(201);
    await source.emu.close();
    emu = null;
    // The last pages hold the newest sessions and probes; the open reads only the first ones.
    const fd = openSync(source.dbPath, 'r+');
    const size = fstatSync(fd).size;
    writeSync(fd, Buffer.alloc(16 * 4096, 0xff), 0, 16 * 4096, size - 24 * 4096);
    closeSync(fd);
    const s = await serve(source.dbPath);
    const list = await s.get(`/_vtr/api/sessions?limit=1000`);
    expect(list.status, JSON.stringify(list.body)).toBe(503);
    expect(list.body).toMatchObject({ code: 'database_corrupt', db: s.dbPath });
    expect(list.body.message).toMatch(/is damaged .*another --db/);
    const sim = await fetch(`${s.origin}/_vtr/api/sites/${site}/sessions/simulate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ count: 300, seed: 2 }) });
    expect(sim.status).toBe(503);
    expect(((await sim.json()) as { code: string }).code).toBe('database_corrupt');
    expect((await s.get('/_vtr/api/state')).status).toBe(503);
    expect(await s.get('/_vtr/health')).toMatchObject({ status: 503, body: { status: 'degraded', code: 'database_corrupt', db: s.dbPath } });
    const failing = s.lines.filter((l) => l.includes('are failing'));
    expect(failing).toHaveLength(1);
    expect(failing[0]).toContain('SQLITE_CORRUPT');
    expect(s.lines.join('\n')).not.toMatch(/work again|\n\s+at /);
  });

  it('start-up: a database that cannot be written is refused with its path and cause', async () => {
    const dbPath = join(tempDir(), 'vtr.db');
    createEmulator({ dbPath, faultLog: () => {} }).store.close();
    expect(() => createEmulator({ dbPath, readOnlyDb: true })).toThrow(new RegExp(`the database ${dbPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} cannot be written: .*SQLITE_READONLY`));
  });

  it('start-up: a directory given as the database is named as one, with a file to give instead', () => {
    const dir = tempDir();
    expect(() => createEmulator({ dbPath: dir })).toThrow(`the database ${dir} is a directory; give a file for --db, e.g. ${join(dir, 'vtr.db')}`);
  });

  it('start-up: a path ending in / (a directory meant) is refused with a file to give instead, and nothing is created', () => {
    const dir = tempDir();
    const given = `${join(dir, 'data')}/`;
    expect(() => createEmulator({ dbPath: given })).toThrow(`the database ${given} ends in /, a directory; give a file for --db, e.g. ${join(dir, 'data', 'vtr.db')}`);
    expect(existsSync(join(dir, 'data'))).toBe(false);
  });

  it('start-up: a missing directory is created; one that cannot be is named', async () => {
    const dir = tempDir();
    const s = await serve(join(dir, 'a', 'b', 'vtr.db'));
    expect(existsSync(join(dir, 'a', 'b', 'vtr.db'))).toBe(true);
    await s.emu.close();
    emu = null;
    // A regular file where a directory should be: impossible for root too.
    const blocked = join(dir, 'a', 'b', 'vtr.db', 'sub', 'x.db');
    expect(() => createEmulator({ dbPath: blocked })).toThrow(/cannot create the directory .*vtr\.db\/sub for the database/);
  });
});

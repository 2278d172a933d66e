// One database, several processes: `vtr serve` instances and this test process's own store
// connection, all writing at once. No "database is locked", no lost update to custom_events.
import { afterAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createStore } from '../../src/store/index.js';
import { createSessionService } from '../../src/sessions/service.js';
import { createClock } from '../../src/domain/clock.js';
import { createEventBus } from '../../src/events/bus.js';
import { runCli, startServer, tempDir, type ServerProcess } from '../helpers/vtr-process.js';
import { rawRequest } from '../helpers/raw-http.js';

const servers: ServerProcess[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop('SIGKILL');
});

async function pool<T>(n: number, concurrency: number, fn: (i: number) => Promise<T>): Promise<T[]> {
  let next = 0;
  const out: T[] = new Array(n);
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        const i = next++;
        out[i] = await fn(i);
      }
    }),
  );
  return out;
}

describe('concurrency', () => {
  it('store: busy_timeout is 5000 and write transactions take the write lock at BEGIN (IMMEDIATE)', () => {
    const file = join(tempDir('vtr-conc-unit-'), 'vtr.db');
    const store = createStore({ path: file });
    try {
      expect(store.db.pragma('busy_timeout', { simple: true })).toBe(5000);
      expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
      const other = new Database(file);
      other.pragma('busy_timeout = 0');
      try {
        let blocked: unknown = null;
        store.tx(() => {
          // Nothing written yet: only an IMMEDIATE transaction already holds the write lock here.
          try {
            other.exec('BEGIN IMMEDIATE');
            other.exec('ROLLBACK');
          } catch (err) {
            blocked = err;
          }
        });
        expect(String(blocked)).toMatch(/locked|busy/i);
        // Once committed, the other connection can write.
        other.exec('BEGIN IMMEDIATE');
        other.exec('ROLLBACK');
      } finally {
        other.close();
      }
    } finally {
      store.close();
    }
  });

  it('serve: a write held up past the busy timeout by another process answers 503 database_busy (a saved view too), and the next one succeeds', async () => {
    const db = join(tempDir('vtr-conc-busy-'), 'vtr.db');
    const server = await startServer(['--db', db]);
    servers.push(server);
    const { site_id: siteId, access_token: token, secret_key: secretKey } = server.site!;
    const agent = new http.Agent({ keepAlive: true });
    const created = await rawRequest(agent, server.origin, 'POST', `/_vtr/api/sites/${siteId}/sessions`, {});
    const sessionId = JSON.parse(created.body).session_id as string;
    // Another process holding the write lock, as a long `vtr state import` does.
    const other = new Database(db);
    other.exec('BEGIN IMMEDIATE');
    let answers: { status: number; body: string }[];
    try {
      answers = await Promise.all([
        rawRequest(agent, server.origin, 'POST', `/api/v1/session/${sessionId}/event`, { name: 'held' }, token),
        rawRequest(agent, server.origin, 'POST', '/api/v1/event', { secret_key: secretKey, email: 'a@example.com' }),
        // A single-statement write (no transaction of its own) waits and answers the same way.
        rawRequest(agent, server.origin, 'POST', `/_vtr/api/sites/${siteId}/views`, { name: 'held', filter: 'channel = paid' }),
      ]);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    for (const a of answers) {
      expect(a.status).toBe(503);
      expect(JSON.parse(a.body)).toMatchObject({ code: 'database_busy', message: expect.stringMatching(/locked.*try again/) });
    }
    const after = await rawRequest(agent, server.origin, 'POST', `/api/v1/session/${sessionId}/event`, { name: 'after' }, token);
    expect(after.status).toBe(200);
    // Nothing of the refused event was written.
    const session = JSON.parse((await rawRequest(agent, server.origin, 'GET', `/api/v1/session/${sessionId}`, undefined, token)).body);
    expect(session.custom_events).toEqual(['after']);
    expect(server.stderr()).not.toMatch(/unexpected error/);
    agent.destroy();
  }, 30_000);

  it('serve: a site removed by another process while a write waits for the lock answers 404 not_found, not 500', async () => {
    const db = join(tempDir('vtr-conc-gone-'), 'vtr.db');
    const server = await startServer(['--db', db]);
    servers.push(server);
    const agent = new http.Agent({ keepAlive: true });
    const newSite = async () => JSON.parse((await rawRequest(agent, server.origin, 'POST', '/_vtr/api/sites', { name: 'doomed' })).body).site_id as string;
    const writes: Array<[string, unknown]> = [
      [`/_vtr/api/sites/${await newSite()}/sessions`, {}],
      [`/_vtr/api/sites/${await newSite()}/views`, { name: 'v', filter: 'channel = paid' }],
    ];
    // Another process (a `vtr state import`, or `sites delete` through another server) removes the
    // site and commits while the write waits for the lock: the site was read before, the insert after.
    for (const [path, body] of writes) {
      const other = new Database(db);
      other.pragma('foreign_keys = ON');
      other.exec('BEGIN IMMEDIATE');
      other.prepare('DELETE FROM sites WHERE site_id = ?').run(path.split('/')[4]);
      const answer = rawRequest(agent, server.origin, 'POST', path, body);
      await new Promise((r) => setTimeout(r, 600));
      other.exec('COMMIT');
      other.close();
      const a = await answer;
      expect({ path, status: a.status }).toEqual({ path, status: 404 });
      expect(JSON.parse(a.body)).toMatchObject({ code: 'not_found', message: expect.stringMatching(/another process/) });
    }
    expect(server.stderr()).not.toMatch(/unexpected error|FOREIGN KEY/);
    agent.destroy();
  }, 30_000);

  it('serve: three servers started at once on a new database file all come up with one default site', async () => {
    const db = join(tempDir('vtr-conc-start-'), 'vtr.db');
    const started = await Promise.all([startServer(['--db', db]), startServer(['--db', db]), startServer(['--db', db])]);
    servers.push(...started);
    // Exactly one of them created the default site.
    expect(started.filter((s) => s.site !== null)).toHaveLength(1);
    const agent = new http.Agent();
    for (const s of started) {
      const sites = JSON.parse((await rawRequest(agent, s.origin, 'GET', '/_vtr/api/sites')).body) as unknown[];
      expect(sites).toHaveLength(1);
    }
    agent.destroy();
    for (const s of started) expect(await s.stop('SIGTERM')).toBe(0);
  }, 60_000);

  it('custom events: N concurrent events from several processes land exactly N times, no "database is locked"', async () => {
    const db = join(tempDir('vtr-conc-'), 'vtr.db');
    const first = await startServer(['--db', db]);
    servers.push(first);
    const { site_id: siteId, access_token: token } = first.site!;
    const others = await Promise.all([startServer(['--db', db]), startServer(['--db', db])]);
    servers.push(...others);
    const all = [first, ...others];
    const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
    const created = await rawRequest(agent, first.origin, 'POST', `/_vtr/api/sites/${siteId}/sessions`, {});
    expect(created.status).toBe(201);
    const sessionId = JSON.parse(created.body).session_id as string;

    // This process's own connection, through the store and session service, like a fourth writer.
    const store = createStore({ path: db });
    const direct = createSessionService({ store, clock: createClock('system'), bus: createEventBus() });

    const HTTP_EVENTS = 240;
    const DIRECT_EVENTS = 60;
    const CLI_EVENTS = 6;
    const failures: string[] = [];
    let stopNoise = false;

    // Background contention: new sessions on every server while the events go in.
    const noise = (async () => {
      let i = 0;
      while (!stopNoise) {
        const s = all[i++ % all.length];
        const r = await rawRequest(agent, s.origin, 'POST', `/_vtr/api/sites/${siteId}/sessions`, { page_views: 3, duration: 30 });
        if (r.status !== 201) failures.push(`noise create: ${r.status} ${r.body}`);
      }
      return i;
    })();

    const viaHttp = pool(HTTP_EVENTS, 12, async (i) => {
      const s = all[i % all.length];
      const r = await rawRequest(agent, s.origin, 'POST', `/api/v1/session/${sessionId}/event`, { name: `http-${i}` }, token);
      if (r.status !== 200) failures.push(`http-${i}: ${r.status} ${r.body}`);
    });
    const viaStore = (async () => {
      for (let i = 0; i < DIRECT_EVENTS; i++) {
        try {
          direct.addCustomEvent(sessionId, siteId, `direct-${i}`);
        } catch (err) {
          failures.push(`direct-${i}: ${String(err)}`);
        }
        // Let the HTTP side run between writes (better-sqlite3 is synchronous).
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    const viaCli = pool(CLI_EVENTS, 2, async (i) => {
      const s = all[i % all.length];
      const r = await runCli(['session', 'event', sessionId, `cli-${i}`], { env: { ...s.env, VTR_ACCESS_TOKEN: token }, timeoutMs: 30_000 });
      if (r.code !== 0) failures.push(`cli-${i}: exit ${r.code} ${r.stderr}`);
    });
    await Promise.all([viaHttp, viaStore, viaCli]);
    stopNoise = true;
    const noiseCount = await noise;

    expect(failures.slice(0, 10)).toEqual([]);
    const events = direct.get(sessionId).custom_events;
    store.close();
    const expected = [
      ...Array.from({ length: HTTP_EVENTS }, (_, i) => `http-${i}`),
      ...Array.from({ length: DIRECT_EVENTS }, (_, i) => `direct-${i}`),
      ...Array.from({ length: CLI_EVENTS }, (_, i) => `cli-${i}`),
    ];
    expect(events).toHaveLength(expected.length);
    expect([...events].sort()).toEqual([...expected].sort());
    // Every server sees the same final session.
    for (const s of all) {
      const r = await rawRequest(agent, s.origin, 'GET', `/api/v1/session/${sessionId}`, undefined, token);
      expect(JSON.parse(r.body).custom_events).toHaveLength(expected.length);
    }
    expect(noiseCount).toBeGreaterThan(3);
    agent.destroy();
    for (const s of all) {
      expect(s.stderr()).not.toMatch(/database is locked|SQLITE_BUSY|unexpected error/i);
      expect(await s.stop('SIGTERM')).toBe(0);
    }
  }, 120_000);
});

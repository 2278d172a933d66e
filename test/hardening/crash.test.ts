// Crashes and restarts: SIGKILL the built server in the middle of a stream of writes (sessions
// created, custom events added, a bulk simulate), restart it on the same --db, and check that every
// write answered 2xx before the kill is there and that the database opens cleanly — several times,
// at different moments.
import { afterAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startServer, tempDir, type ServerProcess } from '../helpers/vtr-process.js';
import { pollUntil } from '../helpers/poll.js';
import { rawRequest, type RawAnswer } from '../helpers/raw-http.js';

/** What the server acknowledged (2xx) before it died. */
interface Acked {
  sessions: Set<string>;
  /** session id → event names acknowledged for it, in order. */
  events: Map<string, string[]>;
}

const dir = tempDir('vtr-crash-');
const db = join(dir, 'vtr.db');
const servers: ServerProcess[] = [];

afterAll(async () => {
  for (const s of servers) await s.stop('SIGKILL');
});

/** Writers: each creates a session, then adds events to it, until told to stop or the server dies. */
function startWriters(server: ServerProcess, siteId: string, token: string, acked: Acked, workers = 4) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: workers + 2 });
  let stop = false;
  let killing = false;
  let writes = 0;
  const errors: unknown[] = [];
  const loops = Array.from({ length: workers }, async (_, w) => {
    let n = 0;
    while (!stop) {
      try {
        const s = await rawRequest(agent, server.origin, 'POST', `/_vtr/api/sites/${siteId}/sessions`, { ip: `192.0.2.${w + 1}`, page_views: 2, duration: 5 });
        if (s.status !== 201) throw new Error(`create answered ${s.status}: ${s.body}`);
        const id = JSON.parse(s.body).session_id as string;
        acked.sessions.add(id);
        writes++;
        for (let k = 0; k < 5 && !stop; k++) {
          const name = `w${w}-${n++}`;
          const e = await rawRequest(agent, server.origin, 'POST', `/api/v1/session/${id}/event`, { name }, token);
          if (e.status !== 200) throw new Error(`event answered ${e.status}: ${e.body}`);
          const list = acked.events.get(id) ?? [];
          list.push(name);
          acked.events.set(id, list);
          writes++;
        }
      } catch (err) {
        // Expected once the server is being killed; anything before that is a failure.
        if (!killing) errors.push(err);
        return;
      }
    }
  });
  return {
    writes: () => writes,
    /** The kill is coming: failed requests from now on are expected. */
    killing: () => void (killing = true),
    async stop() {
      stop = true;
      await Promise.all(loops);
      agent.destroy();
      expect(errors.map(String)).toEqual([]);
    },
  };
}

async function verify(server: ServerProcess, acked: Acked): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  const missing: string[] = [];
  const ids = [...acked.sessions];
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < ids.length) {
        const id = ids[next++];
        const r = await rawRequest(agent, server.origin, 'GET', `/_vtr/api/sessions/${id}`);
        if (r.status !== 200) {
          missing.push(`session ${id}: ${r.status}`);
          continue;
        }
        const events = JSON.parse(r.body).custom_events as string[];
        for (const name of acked.events.get(id) ?? []) if (!events.includes(name)) missing.push(`event ${name} of ${id}`);
      }
    }),
  );
  agent.destroy();
  expect(missing.slice(0, 20), `${missing.length} acknowledged writes lost`).toEqual([]);
}

function checkDatabase(): void {
  // A second connection, as any tool would open the file after a crash (the WAL is replayed).
  const conn = new Database(db);
  try {
    expect(conn.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(conn.pragma('foreign_key_check')).toEqual([]);
  } finally {
    conn.close();
  }
}

describe('crash and restart', () => {
  it('kill -9: every write acknowledged before the kill survives a restart, at several moments', async () => {
    let server = await startServer(['--db', db]);
    servers.push(server);
    const { site_id: siteId, access_token: token } = server.site!;
    // A second site for bulk simulate runs, so a kill can land inside a big batch transaction.
    const sim = await rawRequest(new http.Agent(), server.origin, 'POST', '/_vtr/api/sites', { name: 'bulk' });
    expect(sim.status).toBe(201);
    const simSite = JSON.parse(sim.body).site_id as string;
    const acked: Acked = { sessions: new Set(), events: new Map() };

    // Kill after this many acknowledged writes: early, mid-stream, and during a bulk simulate.
    const moments = [
      { after: 5, simulate: false },
      { after: 60, simulate: false },
      { after: 20, simulate: true },
      { after: 150, simulate: false },
    ];
    for (const [cycle, m] of moments.entries()) {
      const writers = startWriters(server, siteId, token, acked);
      let simulate: Promise<RawAnswer | null> = Promise.resolve(null);
      if (m.simulate) {
        const agent = new http.Agent();
        simulate = rawRequest(agent, server.origin, 'POST', `/_vtr/api/sites/${simSite}/sessions/simulate`, { count: 50_000, seed: cycle }).catch(() => null);
      }
      const target = writers.writes() + m.after;
      await pollUntil(() => writers.writes() >= target, 30_000, () => `cycle ${cycle}: ${writers.writes()} of ${target} writes before the kill`, 10);
      writers.killing();
      await server.stop('SIGKILL');
      await writers.stop();
      const sim = await simulate;
      // The bulk run was cut short by the kill (no answer) or finished before it (201), never a 5xx;
      // either way, nothing half-written is left (checked below).
      if (m.simulate) expect([null, 201], `cycle ${cycle}: bulk simulate`).toContain(sim === null ? null : sim.status);
      else expect(sim).toBeNull();

      checkDatabase();
      server = await startServer(['--db', db]);
      servers.push(server);
      expect(server.site, 'a restart does not bootstrap a second default site').toBeNull();
      await verify(server, acked);
    }
    expect(acked.sessions.size).toBeGreaterThan(20);
    // After all the kills the server still takes writes and stops cleanly.
    const r = await rawRequest(new http.Agent(), server.origin, 'POST', `/_vtr/api/sites/${siteId}/sessions`, {});
    expect(r.status).toBe(201);
    expect(await server.stop('SIGTERM')).toBe(0);
    checkDatabase();
    expect(server.stderr()).not.toMatch(/unexpected error|SQLITE_CORRUPT|malformed/i);
  }, 120_000);
});

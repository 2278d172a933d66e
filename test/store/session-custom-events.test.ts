// A session's custom events live in a table of their own: they read back in order with the session,
// survive an upgrade from a database that kept them in the session's row, and go with their site.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createStore, type Store, type SessionRecord } from '../../src/store/index.js';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { emptySession } from '../../src/sessions/service.js';
import type { Site } from '../../src/domain/site.js';

const site: Site = {
  site_id: 'a', name: 'A', plan: 'paid', country: 'US', owner_email: null, site_key: 'pk_test_a', secret_key: 'sk_test_a',
  conversion_events: [], bounce_seconds: 10, excluded_countries: [], ip_allowlist: [], is_default: false, created_at: '2026-11-21T09:00:00.000000',
};
const record = (id: string, custom_events: string[]): SessionRecord => ({
  session: { ...emptySession(site, id, '2026-11-21T09:00:00.000000'), custom_events },
  first_seen_us: 1, last_seen_us: 1, click_id: null, check_risks: [], seq: 1,
});
const open: Store[] = [];
const storeAt = (path: string) => {
  const s = createStore({ path });
  open.push(s);
  return s;
};
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});
const rows = (store: Store, id: string) =>
  store.db.prepare('SELECT position, name FROM session_custom_events WHERE session_id = ? ORDER BY position').all(id);

describe('store: session custom events', () => {
  it('migration: a database that kept the list in the session row has it moved, in order, repeats kept', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'vtr-events-')), 'old.db');
    const raw = new Database(path);
    for (const sql of MIGRATIONS.slice(0, 4)) raw.exec(sql);
    raw.pragma('user_version = 4');
    raw.prepare(`INSERT INTO sites (site_id, name, plan, site_key, secret_key, conversion_events, bounce_seconds, excluded_countries, ip_allowlist, created_at)
      VALUES ('a', 'A', 'paid', 'pk_a', 'sk_a', '[]', 10, '[]', '[]', '2026-11-21T09:00:00.000000')`).run();
    const insert = raw.prepare(`INSERT INTO sessions (session_id, site_id, created_at, updated_at, custom_events, first_seen_us, last_seen_us, seq)
      VALUES (?, 'a', '2026-11-21T09:00:00.000000', '2026-11-21T09:00:00.000000', ?, 1, 1, ?)`);
    insert.run('ses_1', JSON.stringify(['signup', 'say "hi"', 'signup']), 1);
    insert.run('ses_2', '[]', 2);
    raw.close();

    const store = storeAt(path);
    expect(store.sessions.get('ses_1')!.session.custom_events).toEqual(['signup', 'say "hi"', 'signup']);
    expect(store.sessions.get('ses_2')!.session.custom_events).toEqual([]);
    expect(rows(store, 'ses_1')).toEqual([{ position: 0, name: 'signup' }, { position: 1, name: 'say "hi"' }, { position: 2, name: 'signup' }]);
    const columns = (store.db.prepare('PRAGMA table_info(sessions)').all() as { name: string }[]).map((c) => c.name);
    expect(columns).not.toContain('custom_events');
  });

  it('update: an appended event adds one row and leaves the others as they were', () => {
    const store = storeAt(':memory:');
    store.sites.insert(site);
    store.sessions.insert(record('ses_1', ['a']));
    let rec = store.sessions.get('ses_1')!;
    store.sessions.update({ ...rec, session: { ...rec.session, custom_events: ['a', 'b'] } });
    rec = store.sessions.get('ses_1')!;
    store.sessions.update({ ...rec, session: { ...rec.session, custom_events: ['a', 'b', 'a'] } });
    expect(rows(store, 'ses_1')).toEqual([{ position: 0, name: 'a' }, { position: 1, name: 'b' }, { position: 2, name: 'a' }]);
    expect(store.sessions.list({ siteId: 'a' })[0].custom_events).toEqual(['a', 'b', 'a']);
  });

  it('get: a name with a lone surrogate answers as SQLite reads it back', () => {
    const store = storeAt(':memory:');
    store.sites.insert(site);
    store.sessions.insert(record('ses_1', ['ok']));
    const rec = store.sessions.get('ses_1')!;
    store.sessions.update({ ...rec, session: { ...rec.session, custom_events: ['ok', 'x\ud800'] } });
    const fromRow = store.sessions.list({ siteId: 'a' })[0];
    expect(store.sessions.get('ses_1')!.session).toEqual(fromRow);
    expect(fromRow.custom_events[1]).not.toBe('x\ud800');
  });

  it('sites: deleting a site takes its sessions\' events with it', () => {
    const store = storeAt(':memory:');
    store.sites.insert(site);
    store.sessions.insert(record('ses_1', ['a', 'b']));
    store.sites.delete('a');
    expect(store.db.prepare('SELECT count(*) AS n FROM session_custom_events').get()).toEqual({ n: 0 });
  });
});

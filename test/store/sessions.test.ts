// A session written through the store reads back as written, whatever its values hold, and an
// update never moves a session's identity or origin.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createStore, type Store, type SessionRecord } from '../../src/store/index.js';
import { emptySession } from '../../src/sessions/service.js';
import type { Site } from '../../src/domain/site.js';
import type { Session } from '../../src/domain/session.js';

let store: Store;
const site: Site = {
  site_id: 'a', name: 'Site "a"', plan: 'paid', country: 'US', owner_email: null, site_key: 'pk_test_a', secret_key: 'sk_test_a',
  conversion_events: [], bounce_seconds: 10, excluded_countries: [], ip_allowlist: [], is_default: false, created_at: '2026-11-21T09:00:00.000000',
};
beforeEach(() => {
  store = createStore({ path: ':memory:' });
  store.sites.insert(site);
});
afterEach(() => store.close());

let n = 0;
const put = (extra: Partial<Session>): string => {
  const id = `ses_${++n}`;
  const rec: SessionRecord = {
    session: { ...emptySession(site, id, '2026-11-21T09:00:00.000000'), ...extra },
    first_seen_us: n, last_seen_us: n, click_id: null, check_risks: [], seq: n,
  };
  store.sessions.insert(rec);
  return id;
};
/** The row as SQLite has it (a list reads past the cache). */
const fromDb = (id: string): Session => store.sessions.list({ siteId: site.site_id, limit: 10_000 }).find((s) => s.session_id === id)!;
const same = (id: string, extra: Partial<Session>) => {
  expect(fromDb(id)).toEqual({ ...emptySession(site, id, '2026-11-21T09:00:00.000000'), ...extra });
  // What get answers (kept as written) is the row's own text, field for field and in order.
  expect(JSON.stringify(store.sessions.get(id)!.session)).toBe(JSON.stringify(fromDb(id)));
};
const check = (extra: Partial<Session>) => same(put(extra), extra);

describe('store: sessions', () => {
  it('get: reads back what was written, for plain and awkward values', () => {
    check({});
    check({ returned: true, risks: ['vpn', 'ip_mismatch'], custom_events: ['a', 'b"c', 'd\\e'], actions: [], page_views: 3, duration: 40, value: 4 });
    check({ returned: false, entry_path: '/a\nb\u0001\u001f\u2028é😀', user_agent: 'x'.repeat(3000), city: null });
    check({ value: 0.1 + 0.2 });
    check({ value: 1 / 3 });
    check({ value: 1e21 });
    check({ value: -0.5, duration: 0, page_views: 0 });
  });

  it('get: a text with a lone surrogate answers as SQLite reads it back, after an insert and an update', () => {
    const id = put({ city: 'a\ud800b', user_agent: 'x\udc00' });
    expect(JSON.stringify(store.sessions.get(id)!.session)).toBe(JSON.stringify(fromDb(id)));
    const from = store.sessions.get(id)!;
    store.sessions.update({ ...from, session: { ...from.session, city: 'c\udbff' } });
    expect(JSON.stringify(store.sessions.get(id)!.session)).toBe(JSON.stringify(fromDb(id)));
  });

  it('get: an unknown id is null', () => {
    expect(store.sessions.get('ses_nope')).toBeNull();
  });

  it('update: the row reads back as the record, its identity and origin unchanged', () => {
    const id = put({ custom_events: ['a'], value: 1, page_views: 2 });
    const from = store.sessions.get(id)!;
    const rec: SessionRecord = { ...from, last_seen_us: from.last_seen_us + 5, session: { ...from.session, custom_events: ['a', 'b'], value: 3.5, updated_at: '2026-11-21T10:00:00.000000' } };
    store.sessions.update(rec);
    expect(store.sessions.get(id)).toEqual(rec);
    expect(JSON.stringify(store.sessions.get(id)!.session)).toBe(JSON.stringify(fromDb(id)));
    store.sessions.update({ ...rec, seq: 999, first_seen_us: 999, session: { ...rec.session, created_at: '2030-01-01T00:00:00.000000', city: 'Rome', returned: true } });
    expect(store.sessions.get(id)).toEqual({ ...rec, session: { ...rec.session, city: 'Rome', returned: true } });
    expect(JSON.stringify(store.sessions.get(id)!.session)).toBe(JSON.stringify(fromDb(id)));
  });

  it('update: each change, of any column, reads back from the row (only what changed is written)', () => {
    const id = put({ custom_events: ['a'], risks: ['vpn'], value: 1, city: 'Oslo', returned: true });
    const internal = () => store.db.prepare('SELECT last_seen_us, click_id, check_risks FROM sessions WHERE session_id = ?').get(id);
    const changes: Array<(r: SessionRecord) => SessionRecord> = [
      (r) => ({ ...r, session: { ...r.session, custom_events: [...r.session.custom_events, 'b'], updated_at: '2026-11-21T10:00:00.000000' } }),
      (r) => ({ ...r, session: { ...r.session, risks: [...r.session.risks] } }), // same items, a new list
      (r) => ({ ...r, session: { ...r.session, risks: [], city: null, value: null, returned: false } }),
      (r) => ({ ...r, session: { ...r.session, returned: null, page_views: 7 } }),
      (r) => ({ ...r, last_seen_us: r.last_seen_us + 10, click_id: 'gclid-1', check_risks: ['disposable_email'] }),
      (r) => ({ ...r }), // nothing changed
      (r) => ({ ...r, check_risks: [], click_id: null, session: { ...r.session, actions: ['block'], user_agent: 'UA 2' } }),
    ];
    for (const change of changes) {
      const rec = change(store.sessions.get(id)!);
      store.sessions.update(rec);
      expect(fromDb(id)).toEqual(rec.session);
      expect(internal()).toEqual({ last_seen_us: rec.last_seen_us, click_id: rec.click_id, check_risks: JSON.stringify(rec.check_risks) });
      expect(store.sessions.get(id)).toEqual(rec);
    }
  });

  it('update: a list that grows, then changes otherwise, is stored as exactly its JSON each time', () => {
    const id = put({ custom_events: [] });
    const stored = () => (store.db.prepare('SELECT custom_events FROM sessions WHERE session_id = ?').get(id) as { custom_events: string }).custom_events;
    const lists: string[][] = [['a'], ['a', 'say "hi"\n'], ['a', 'say "hi"\n', 'ü €', 'b', 'c'], ['x'], ['x', 'y'], ['y', 'y'], ['y', 'y', 'y'], ['p', 'q', 'r', 's'], []];
    for (const list of lists) {
      const rec = store.sessions.get(id)!;
      store.sessions.update({ ...rec, session: { ...rec.session, custom_events: list } });
      expect(stored()).toBe(JSON.stringify(list));
      expect(store.sessions.get(id)!.session.custom_events).toEqual(list);
    }
    // Read from the row (a rollback empties the caches), then grown: still exact.
    expect(() => store.tx(() => {
      throw new Error('rolled back');
    })).toThrow('rolled back');
    const fresh = store.sessions.get(id)!;
    store.sessions.update({ ...fresh, session: { ...fresh.session, custom_events: ['z'] } });
    const again = store.sessions.get(id)!;
    store.sessions.update({ ...again, session: { ...again.session, custom_events: ['z', 'zz'] } });
    expect(stored()).toBe('["z","zz"]');
  });

  it('get: a record read cannot be changed by the caller, and a change of a copy is not seen until written', () => {
    const id = put({ risks: ['vpn'] });
    const rec = store.sessions.get(id)!;
    expect(() => (rec.session.risks as string[]).push('x')).toThrow(TypeError);
    expect(() => ((rec.session as { city: string }).city = 'x')).toThrow(TypeError);
    const copy = { ...rec, session: { ...rec.session, city: 'Oslo' } };
    expect(store.sessions.get(id)!.session.city).toBeNull();
    store.sessions.update(copy);
    copy.session.city = 'changed after the write';
    expect(store.sessions.get(id)!.session.city).toBe('Oslo');
  });
});

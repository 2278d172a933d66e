// store.sessions.getJson (the JSON SQLite builds for GET /api/v1/session/{id}) must be exactly what
// JSON.stringify makes of the session that store.sessions.get reads.
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
const same = (id: string) => {
  const viaJs = JSON.stringify(store.sessions.get(id)!.session);
  expect(store.sessions.getJson(id)).toEqual({ site_id: 'a', json: viaJs });
};

describe('store: session JSON built by SQLite', () => {
  it('getJson: the same text as JSON.stringify of get, for plain and awkward values', () => {
    same(put({}));
    same(put({ returned: true, risks: ['vpn', 'ip_mismatch'], custom_events: ['a', 'b"c', 'd\\e'], actions: [], page_views: 3, duration: 40, value: 4 }));
    same(put({ returned: false, entry_path: '/a\nb\u0001\u001f\u2028é😀', user_agent: 'x'.repeat(3000), city: null }));
    same(put({ value: 0.1 + 0.2 }));
    same(put({ value: 1 / 3 }));
    same(put({ value: 1e21 }));
    same(put({ value: -0.5, duration: 0, page_views: 0 }));
  });

  it('getJson: an unknown id is null; the site comes with the text', () => {
    expect(store.sessions.getJson('ses_nope')).toBeNull();
    expect(JSON.parse(store.sessions.getJson(put({}))!.json).site_id).toBe('a');
  });
});

describe('store: session updates write what changed', () => {
  it('update(rec, from): only changed columns are written, and the row reads back as rec', () => {
    const id = put({ custom_events: ['a'], value: 1, page_views: 2 });
    const from = store.sessions.get(id)!;
    const rec: SessionRecord = { ...from, last_seen_us: from.last_seen_us + 5, session: { ...from.session, custom_events: ['a', 'b'], value: 3.5, updated_at: '2026-11-21T10:00:00.000000' } };
    store.sessions.update(rec, from);
    expect(store.sessions.get(id)).toEqual(rec);
    same(id);
  });

  it('update(rec, from): a record not read by this store, or another session\'s, gets a full write', () => {
    const a = put({ city: 'Berlin' });
    const b = put({ city: 'Paris' });
    const fromB = store.sessions.get(b)!;
    const recA: SessionRecord = { ...store.sessions.get(a)!, session: { ...store.sessions.get(a)!.session, city: 'Rome' } };
    store.sessions.update(recA, fromB); // mismatched `from`: must not diff against b's row
    expect(store.sessions.get(a)!.session.city).toBe('Rome');
    const copy: SessionRecord = JSON.parse(JSON.stringify(store.sessions.get(a)));
    copy.session.city = 'Oslo';
    store.sessions.update(copy, copy); // never read here: full write
    expect(store.sessions.get(a)!.session.city).toBe('Oslo');
    expect(store.sessions.get(b)!.session.city).toBe('Paris');
  });
});

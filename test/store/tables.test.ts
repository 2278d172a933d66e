import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createStore, type Store } from '../../src/store/index.js';
import { emptySession } from '../../src/sessions/service.js';
import type { Site } from '../../src/domain/site.js';
import type { SessionRecord } from '../../src/store/index.js';

let store: Store;
beforeEach(() => {
  store = createStore({ path: ':memory:' });
});
afterEach(() => store.close());

const site = (id: string, extra: Partial<Site> = {}): Site => ({
  site_id: id, name: `Site ${id}`, plan: 'paid', country: 'US', owner_email: null, site_key: `pk_test_${id}`, secret_key: `sk_test_${id}`,
  conversion_events: ['conversion'], bounce_seconds: 10, excluded_countries: [], ip_allowlist: [], is_default: false,
  created_at: '2026-11-21T09:00:00.000000', ...extra,
});

const record = (s: Site, id: string, seq: number, extra: Partial<SessionRecord['session']> = {}): SessionRecord => ({
  session: { ...emptySession(s, id, '2026-11-21T09:00:00.000000'), ...extra },
  first_seen_us: seq, last_seen_us: seq, click_id: null, check_risks: [], seq,
});

describe('store: sites and tokens', () => {
  it('sites: arrays, booleans and nulls read back as written', () => {
    const s = site('a', { excluded_countries: ['DE', 'RU'], ip_allowlist: ['10.0.0.0/8'], conversion_events: [], owner_email: 'x@example.com', country: null, is_default: true });
    store.sites.insert(s);
    expect(store.sites.get('a')).toEqual(s);
    expect(store.sites.bySecretKey('sk_test_a')).toEqual(s);
    expect(store.sites.bySiteKey('pk_test_a')).toEqual(s);
    expect(store.sites.get('nope')).toBeNull();
  });

  it('sites: list puts the default site first; delete cascades to tokens', () => {
    store.sites.insert(site('b', { created_at: '2026-01-01T00:00:00.000000' }));
    store.sites.insert(site('a', { is_default: true, created_at: '2026-06-01T00:00:00.000000' }));
    expect(store.sites.list().map((s) => s.site_id)).toEqual(['a', 'b']);
    store.sites.tokens.insert({ token: 't1', site_id: 'b', created_at: '2026-01-01T00:00:00.000000', revoked_at: null });
    expect(store.sites.delete('b')).toBe(true);
    expect(store.sites.tokens.get('t1')).toBeNull();
    expect(store.sites.delete('b')).toBe(false);
  });

  it('tokens: revoking twice keeps the first revocation time', () => {
    store.sites.insert(site('a'));
    store.sites.tokens.insert({ token: 't1', site_id: 'a', created_at: '2026-01-01T00:00:00.000000', revoked_at: null });
    expect(store.sites.tokens.revoke('t1', '2026-02-01T00:00:00.000000')).toBe(true);
    expect(store.sites.tokens.revoke('t1', '2026-03-01T00:00:00.000000')).toBe(false);
    expect(store.sites.tokens.get('t1')?.revoked_at).toBe('2026-02-01T00:00:00.000000');
  });

  it('secret keys are unique across sites', () => {
    store.sites.insert(site('a'));
    expect(() => store.sites.insert(site('b', { secret_key: 'sk_test_a' }))).toThrow(/UNIQUE/);
  });
});

describe('store: sessions', () => {
  it('sessions: every field reads back as written, returned true/false/null included', () => {
    const s = site('a');
    store.sites.insert(s);
    for (const [id, returned] of [['s1', true], ['s2', false], ['s3', null]] as const) {
      const rec = record(s, id, 1, { returned, risks: ['tor', 'anonymous'], custom_events: ['a', 'a'], value: 12.5, page_views: 3, duration: 42, risk_level: 'invalid' });
      store.sessions.insert(rec);
      expect(store.sessions.get(id)).toEqual(rec);
    }
  });

  it('sessions: list is newest first by seq, per site, with a limit and a cursor', () => {
    const a = site('a');
    const b = site('b');
    store.sites.insert(a);
    store.sites.insert(b);
    store.sessions.insert(record(a, 'a1', 10));
    store.sessions.insert(record(b, 'b1', 20));
    store.sessions.insert(record(a, 'a2', 30));
    store.sessions.insert(record(a, 'a3', 40));
    const ids = (q: Parameters<Store['sessions']['list']>[0]) => store.sessions.list(q).map((s) => s.session_id);
    expect(ids({})).toEqual(['a3', 'a2', 'b1', 'a1']);
    expect(ids({ siteId: 'a' })).toEqual(['a3', 'a2', 'a1']);
    expect(ids({ siteId: 'a', limit: 2 })).toEqual(['a3', 'a2']);
    expect(ids({ siteId: 'a', before: store.sessions.cursor('a2')! })).toEqual(['a1']);
    expect(store.sessions.count()).toBe(4);
  });

  it('sessions: latestForVisitor picks the most recently seen session of that site', () => {
    const a = site('a');
    const b = site('b');
    store.sites.insert(a);
    store.sites.insert(b);
    store.sessions.insert({ ...record(a, 'old', 1, { fingerprint: 'fp' }), last_seen_us: 100 });
    store.sessions.insert({ ...record(a, 'new', 2, { fingerprint: 'fp' }), last_seen_us: 200 });
    store.sessions.insert({ ...record(b, 'other', 3, { fingerprint: 'fp' }), last_seen_us: 300 });
    expect(store.sessions.latestForVisitor('a', 'fp')?.session.session_id).toBe('new');
    expect(store.sessions.latestForVisitor('a', 'nobody')).toBeNull();
  });
});

describe('store: checks', () => {
  it('checks: a result is stored as JSON text, and reads back as the object', () => {
    store.sites.insert(site('a'));
    const result = { id: 'chk_1', email: { name: 'Zoë 😀' } };
    store.checks.insert({
      check_id: 'chk_1', site_id: 'a', session_id: null, risk_level: 'normal', created_at: '2026-11-21T09:00:00.000000', result, seq: 1,
    });
    expect(store.db.prepare("SELECT typeof(result) AS t, result FROM checks WHERE check_id = 'chk_1'").get()).toEqual({ t: 'text', result: JSON.stringify(result) });
    expect(store.checks.get('chk_1')?.result).toEqual(result);
  });

  it('checks: a device\'s checks and emails are counted from the index, up to the number asked for', () => {
    store.sites.insert(site('a'));
    const at = (i: number) => `2026-11-21T09:00:${String(i).padStart(2, '0')}.000000`;
    for (let i = 0; i < 40; i++) {
      store.checks.insert({
        check_id: `chk_${i}`, site_id: 'a', session_id: null, risk_level: 'normal', created_at: at(i), result: {}, seq: i,
        fingerprint: i % 2 ? 'fp_one' : 'fp_two', email: `u${i % 10}@example.com`,
      });
    }
    // fp_one: 20 checks, 5 distinct emails (u1, u3, u5, u7, u9).
    expect(store.checks.deviceChecks('a', 'fp_one', at(0), 1000)).toBe(20);
    expect(store.checks.deviceChecks('a', 'fp_one', at(30), 1000)).toBe(5);
    expect(store.checks.deviceChecks('a', 'fp_one', at(0), 3)).toBe(3);
    expect(store.checks.deviceEmails('a', 'fp_one', 1000)).toBe(5);
    expect(store.checks.deviceEmails('a', 'fp_one', 2)).toBe(2);
    expect(store.checks.deviceChecks('b', 'fp_one', at(0), 1000)).toBe(0);
    const plan = (sql: string) => (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as Array<{ detail: string }>).map((r) => r.detail).join('; ');
    expect(plan("SELECT 1 FROM checks WHERE site_id = 'a' AND fingerprint = 'x' AND created_at >= '' LIMIT 3")).toMatch(/USING COVERING INDEX checks_device\b/);
    expect(plan("SELECT DISTINCT email FROM checks WHERE site_id = 'a' AND fingerprint = 'x' AND email IS NOT NULL LIMIT 3")).toMatch(/USING COVERING INDEX checks_device\b/);
    expect(plan("SELECT 1 FROM checks WHERE site_id = 'a' AND fingerprint = 'x' AND email = 'e' LIMIT 1")).toMatch(/USING COVERING INDEX checks_device\b/);
  });
});

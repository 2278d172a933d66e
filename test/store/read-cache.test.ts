// The site-by-secret-key and token caches (src/store/read-cache.ts) must never answer stale data:
// not after this connection's writes, not after a rolled-back write, not after another process's.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createStore, type Store } from '../../src/store/index.js';
import type { Site } from '../../src/domain/site.js';
import type { SessionRecord } from '../../src/store/index.js';
import { emptySession } from '../../src/sessions/service.js';

const site = (id: string, extra: Partial<Site> = {}): Site => ({
  site_id: id, name: `Site ${id}`, plan: 'paid', country: 'US', owner_email: null, site_key: `pk_test_${id}`, secret_key: `sk_test_${id}`,
  conversion_events: ['conversion'], bounce_seconds: 10, excluded_countries: [], ip_allowlist: [], is_default: false,
  created_at: '2026-11-21T09:00:00.000000', ...extra,
});
const token = (t: string, siteId: string) => ({ token: t, site_id: siteId, created_at: '2026-11-21T09:00:00.000000', revoked_at: null });

let dir: string;
let store: Store;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'vtr-cache-'));
  store = createStore({ path: join(dir, 'vtr.db') });
  store.sites.insert(site('a'));
  store.sites.tokens.insert(token('at_1', 'a'));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('store: read caches', () => {
  it('tokens.withSite: a revoke on this connection shows on the next read', () => {
    expect(store.sites.tokens.withSite('at_1')?.revoked_at).toBeNull();
    store.sites.tokens.revoke('at_1', '2026-11-21T10:00:00.000000');
    expect(store.sites.tokens.withSite('at_1')?.revoked_at).toBe('2026-11-21T10:00:00.000000');
  });

  it('bySecretKey: a key rotation (update) and a delete show on the next read', () => {
    expect(store.sites.bySecretKey('sk_test_a')?.site_id).toBe('a');
    store.sites.update({ ...store.sites.get('a')!, secret_key: 'sk_test_new' });
    expect(store.sites.bySecretKey('sk_test_a')).toBeNull();
    expect(store.sites.bySecretKey('sk_test_new')?.site_id).toBe('a');
    store.sites.delete('a');
    expect(store.sites.bySecretKey('sk_test_new')).toBeNull();
    expect(store.sites.tokens.withSite('at_1')).toBeNull();
  });

  it('get: an update and a delete show on the next read', () => {
    expect(store.sites.get('a')?.plan).toBe('paid');
    store.sites.update({ ...store.sites.get('a')!, plan: 'free' });
    expect(store.sites.get('a')?.plan).toBe('free');
    store.sites.delete('a');
    expect(store.sites.get('a')).toBeNull();
  });

  it('get: after a write in a committed transaction, reads in later transactions are cached again', () => {
    store.tx(() => store.sites.update({ ...store.sites.get('a')!, name: 'Renamed' }));
    const first = store.tx(() => store.sites.get('a'));
    expect(first?.name).toBe('Renamed');
    // The same object: served from the cache (a read from the database builds a new one).
    expect(store.tx(() => store.sites.get('a'))).toBe(first);
  });

  it('bySecretKey: a write rolled back is never cached', () => {
    expect(store.sites.bySecretKey('sk_test_a')?.name).toBe('Site a');
    expect(() =>
      store.tx(() => {
        store.sites.update({ ...store.sites.get('a')!, name: 'Renamed' });
        expect(store.sites.bySecretKey('sk_test_a')?.name).toBe('Renamed'); // read inside the transaction
        throw new Error('rollback');
      }),
    ).toThrow('rollback');
    expect(store.sites.bySecretKey('sk_test_a')?.name).toBe('Site a');
  });

  it('tokens.withSite: another process revoking the token shows in the next turn of the event loop', async () => {
    expect(store.sites.tokens.withSite('at_1')?.revoked_at).toBeNull();
    const other = new Database(join(dir, 'vtr.db'));
    other.pragma('busy_timeout = 5000');
    other.prepare("UPDATE access_tokens SET revoked_at = '2026-11-21T11:00:00.000000' WHERE token = 'at_1'").run();
    other.close();
    // A request sent after the revoke returned is read in a later turn than the lookup above.
    await new Promise((r) => setImmediate(r));
    expect(store.sites.tokens.withSite('at_1')?.revoked_at).toBe('2026-11-21T11:00:00.000000');
  });

  it('views.forSite: insert, update and delete show on the next read; so does another process\'s insert', async () => {
    const view = { saved_view_id: 'v1', site_id: 'a', name: 'V', filter: 'risk_level = high', trigger_webhooks: true, created_at: '2026-11-21T09:00:00.000000' };
    expect(store.views.forSite('a')).toEqual([]);
    store.views.insert(view);
    expect(store.views.forSite('a').map((v) => v.name)).toEqual(['V']);
    store.views.update({ ...view, name: 'W' });
    expect(store.views.forSite('a').map((v) => v.name)).toEqual(['W']);
    store.views.delete('v1');
    expect(store.views.forSite('a')).toEqual([]);
    const other = new Database(join(dir, 'vtr.db'));
    other.pragma('busy_timeout = 5000');
    other.prepare("INSERT INTO saved_views (saved_view_id, site_id, name, filter, trigger_webhooks, created_at) VALUES ('v2', 'a', 'X', 'page_views > 1', 0, 'x')").run();
    other.close();
    await new Promise((r) => setImmediate(r));
    expect(store.views.forSite('a').map((v) => v.saved_view_id)).toEqual(['v2']);
  });

  it('state import and reset empty the caches', () => {
    const doc = store.state.export('2026-11-21T12:00:00.000000');
    expect(store.sites.bySecretKey('sk_test_a')?.site_id).toBe('a');
    store.state.reset();
    expect(store.sites.bySecretKey('sk_test_a')).toBeNull();
    expect(store.sites.tokens.withSite('at_1')).toBeNull();
    store.state.import(doc);
    expect(store.sites.bySecretKey('sk_test_a')?.site_id).toBe('a');
  });

  it('bySecretKey: the cached site cannot be changed by a caller', () => {
    const s = store.sites.bySecretKey('sk_test_a')!;
    expect(() => ((s as { name: string }).name = 'x')).toThrow(TypeError);
    expect(() => s.excluded_countries.push('DE')).toThrow(TypeError);
  });

  describe('sessions.get', () => {
    const rec = (id: string, pageViews: number): SessionRecord => ({
      session: { ...emptySession(site('a'), id, '2026-11-21T09:00:00.000000'), page_views: pageViews },
      first_seen_us: 1, last_seen_us: 1, click_id: null, check_risks: [], seq: 1,
    });
    const pageViews = (id: string) => {
      const r = store.sessions.get(id);
      return r ? r.session.page_views : null;
    };

    it('an update through the store shows on the next read', () => {
      store.sessions.insert(rec('ses_1', 1));
      expect(pageViews('ses_1')).toBe(1);
      store.sessions.update(rec('ses_1', 2));
      expect(pageViews('ses_1')).toBe(2);
      store.sessions.update(rec('ses_1', 3));
      expect(pageViews('ses_1')).toBe(3);
      expect(store.sessions.get('ses_nope')).toBeNull();
      store.sessions.insert(rec('ses_nope', 7));
      expect(pageViews('ses_nope')).toBe(7);
    });

    it('a write rolled back is never cached, and reads inside a transaction see its own writes', () => {
      store.sessions.insert(rec('ses_1', 1));
      expect(pageViews('ses_1')).toBe(1);
      expect(() =>
        store.tx(() => {
          store.sessions.update(rec('ses_1', 5));
          expect(pageViews('ses_1')).toBe(5);
          throw new Error('rollback');
        }),
      ).toThrow('rollback');
      expect(pageViews('ses_1')).toBe(1);
    });

    it('another process\'s update, and a site deleted with its sessions, show in the next turn of the event loop', async () => {
      store.sessions.insert(rec('ses_1', 1));
      expect(pageViews('ses_1')).toBe(1);
      const other = new Database(join(dir, 'vtr.db'));
      other.pragma('busy_timeout = 5000');
      other.prepare("UPDATE sessions SET page_views = 9 WHERE session_id = 'ses_1'").run();
      other.close();
      await new Promise((r) => setImmediate(r));
      expect(pageViews('ses_1')).toBe(9);
      store.sites.delete('a');
      expect(store.sessions.get('ses_1')).toBeNull();
    });

    it('state reset and import show on the next read', () => {
      store.sessions.insert(rec('ses_1', 1));
      const doc = store.state.export('2026-11-21T12:00:00.000000');
      expect(pageViews('ses_1')).toBe(1);
      store.state.reset();
      expect(store.sessions.get('ses_1')).toBeNull();
      store.state.import(doc);
      expect(pageViews('ses_1')).toBe(1);
    });
  });

  // Read inside transactions too: what a transaction wrote is read back inside it, and nothing of
  // it survives its rollback.
  describe('probes.get and sessions.get inside transactions', () => {
    const rec = (id: string, checkRisks: string[] = []): SessionRecord => ({
      session: { ...emptySession(site('a'), id, '2026-11-21T09:00:00.000000'), ip: '192.0.2.1' },
      first_seen_us: 1, last_seen_us: 1, click_id: null, check_risks: checkRisks, seq: 1,
    });
    const probe = (id: string, sessionId: string) => ({ probe_id: id, site_id: 'a', session_id: sessionId, ip: '192.0.2.1', created_at: '2026-11-21T09:00:00.000000', created_us: 1 });

    it('sessions.get: a write inside a transaction shows inside it, and its rollback undoes what was cached', () => {
      store.sessions.insert(rec('ses_1'));
      expect(store.sessions.get('ses_1')?.check_risks).toEqual([]);
      expect(() =>
        store.tx(() => {
          store.sessions.update(rec('ses_1', ['ip_mismatch']));
          expect(store.sessions.get('ses_1')?.check_risks).toEqual(['ip_mismatch']);
          expect(store.sessions.get('ses_1')?.check_risks).toEqual(['ip_mismatch']); // now from the cache
          throw new Error('rollback');
        }),
      ).toThrow('rollback');
      expect(store.sessions.get('ses_1')?.check_risks).toEqual([]);
      store.tx(() => store.sessions.update(rec('ses_1', ['disposable_email'])));
      expect(store.sessions.get('ses_1')?.check_risks).toEqual(['disposable_email']);
    });

    it('sessions.get: a savepoint rolled back inside a transaction that commits leaves nothing of it cached', () => {
      store.sessions.insert(rec('ses_1'));
      store.tx(() => {
        expect(() =>
          store.tx(() => {
            store.sessions.update(rec('ses_1', ['ip_mismatch']));
            expect(store.sessions.get('ses_1')?.check_risks).toEqual(['ip_mismatch']);
            throw new Error('rollback');
          }),
        ).toThrow('rollback');
        expect(store.sessions.get('ses_1')?.check_risks).toEqual([]);
      });
      expect(store.sessions.get('ses_1')?.check_risks).toEqual([]);
    });

    it('probes.get: a probe inserted in a transaction that rolls back is gone', () => {
      store.sessions.insert(rec('ses_1'));
      expect(() =>
        store.tx(() => {
          store.probes.insert(probe('prb_1', 'ses_1'));
          expect(store.probes.get('prb_1')?.session_id).toBe('ses_1');
          throw new Error('rollback');
        }),
      ).toThrow('rollback');
      expect(store.probes.get('prb_1')).toBeNull();
      store.probes.insert(probe('prb_1', 'ses_1'));
      expect(store.probes.get('prb_1')?.session_id).toBe('ses_1');
    });

    it('both: a site deleted with its sessions and probes, and another process\'s update, show on the next read', async () => {
      store.sessions.insert(rec('ses_1'));
      store.probes.insert(probe('prb_1', 'ses_1'));
      expect(store.sessions.get('ses_1')?.session.ip).toBe('192.0.2.1');
      const other = new Database(join(dir, 'vtr.db'));
      other.pragma('busy_timeout = 5000');
      other.prepare("UPDATE sessions SET ip = '192.0.2.9', check_risks = '[\"ip_mismatch\"]' WHERE session_id = 'ses_1'").run();
      other.close();
      await new Promise((r) => setImmediate(r));
      expect(store.sessions.get('ses_1')).toMatchObject({ session: { ip: '192.0.2.9' }, check_risks: ['ip_mismatch'] });
      expect(store.probes.get('prb_1')?.site_id).toBe('a');
      store.sites.delete('a');
      expect(store.sessions.get('ses_1')).toBeNull();
      expect(store.probes.get('prb_1')).toBeNull();
    });

    it('probes.get: the cached record cannot be changed by a caller', () => {
      store.sessions.insert(rec('ses_1', ['ip_mismatch']));
      store.probes.insert(probe('prb_1', 'ses_1'));
      expect(() => ((store.probes.get('prb_1') as { ip: string }).ip = 'x')).toThrow(TypeError);
    });
  });
});

import type { AccessToken, Site } from '../domain/site.js';
import { json, type Db } from './db.js';
import type { ReadCaches } from './read-cache.js';

interface SiteRow extends Omit<Site, 'conversion_events' | 'excluded_countries' | 'ip_allowlist' | 'is_default'> {
  conversion_events: string;
  excluded_countries: string;
  ip_allowlist: string;
  is_default: number;
}

const toSite = (r: SiteRow): Site => ({
  ...r,
  conversion_events: json.parse(r.conversion_events, []),
  excluded_countries: json.parse(r.excluded_countries, []),
  ip_allowlist: json.parse(r.ip_allowlist, []),
  is_default: r.is_default === 1,
});

const toRow = (s: Site) => ({
  ...s,
  conversion_events: json.stringify(s.conversion_events),
  excluded_countries: json.stringify(s.excluded_countries),
  ip_allowlist: json.stringify(s.ip_allowlist),
  is_default: s.is_default ? 1 : 0,
});

export function createSiteStore(db: Db, caches: ReadCaches) {
  const cols = 'site_id, name, plan, country, owner_email, site_key, secret_key, conversion_events, bounce_seconds, excluded_countries, ip_allowlist, is_default, created_at';
  const insert = db.prepare(`INSERT INTO sites (${cols}) VALUES (${cols.split(', ').map((c) => `@${c}`).join(', ')})`);
  const update = db.prepare(
    `UPDATE sites SET ${cols.split(', ').filter((c) => c !== 'site_id').map((c) => `${c} = @${c}`).join(', ')} WHERE site_id = @site_id`,
  );
  const byId = db.prepare<[string], SiteRow>('SELECT * FROM sites WHERE site_id = ?');
  const bySecret = db.prepare<[string], SiteRow>('SELECT * FROM sites WHERE secret_key = ?');
  const bySiteKey = db.prepare<[string], SiteRow>('SELECT * FROM sites WHERE site_key = ?');
  const all = db.prepare<[], SiteRow>('SELECT * FROM sites ORDER BY is_default DESC, created_at');
  const del = db.prepare('DELETE FROM sites WHERE site_id = ?');
  const count = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM sites');

  const tInsert = db.prepare('INSERT INTO access_tokens (token, site_id, created_at, revoked_at) VALUES (@token, @site_id, @created_at, @revoked_at)');
  const tBySite = db.prepare<[string], AccessToken>('SELECT * FROM access_tokens WHERE site_id = ? ORDER BY created_at');
  const tGet = db.prepare<[string], AccessToken>('SELECT * FROM access_tokens WHERE token = ?');
  const tAll = db.prepare<[], AccessToken>('SELECT * FROM access_tokens ORDER BY created_at');
  const tRevoke = db.prepare('UPDATE access_tokens SET revoked_at = ? WHERE token = ? AND revoked_at IS NULL');
  // The hot path of the public API: the token and whether its site exists, in one statement.
  const tWithSite = db.prepare<[string], Pick<AccessToken, 'token' | 'site_id' | 'revoked_at'>>(
    'SELECT t.token, t.site_id, t.revoked_at FROM access_tokens t JOIN sites s ON s.site_id = t.site_id WHERE t.token = ?',
  );

  const one = (r: SiteRow | undefined) => (r ? toSite(r) : null);
  // Shared between callers, so frozen: a caller that wants a changed site builds a new object.
  const frozen = (s: Site | null) => (s ? Object.freeze({ ...s, conversion_events: Object.freeze(s.conversion_events), excluded_countries: Object.freeze(s.excluded_countries), ip_allowlist: Object.freeze(s.ip_allowlist) }) as Site : null);
  const secretCache = caches.cache<Site>();
  const idCache = caches.cache<Site>();
  const tokenCache = caches.cache<Pick<AccessToken, 'token' | 'site_id' | 'revoked_at'>>();
  return {
    insert: (s: Site) => caches.wrote(void insert.run(toRow(s))),
    update: (s: Site) => caches.wrote(void update.run(toRow(s))),
    /** Cached (see read-cache.ts): every session change reads its site. */
    get: (id: string) => idCache.get(id, () => frozen(one(byId.get(id)))),
    /** Cached (see read-cache.ts): every visitor check looks its site up by secret key. */
    bySecretKey: (key: string) => secretCache.get(key, () => frozen(one(bySecret.get(key)))),
    bySiteKey: (key: string) => one(bySiteKey.get(key)),
    list: (): Site[] => all.all().map(toSite),
    delete: (id: string) => caches.wrote(del.run(id).changes > 0),
    count: () => count.get()!.n,
    tokens: {
      insert: (t: AccessToken) => caches.wrote(void tInsert.run(t)),
      forSite: (siteId: string) => tBySite.all(siteId),
      list: () => tAll.all(),
      get: (token: string) => tGet.get(token) ?? null,
      /** The token, only when its site exists. Cached (see read-cache.ts): every public API request reads it. */
      withSite: (token: string) => tokenCache.get(token, () => tWithSite.get(token) ?? null),
      revoke: (token: string, at: string) => caches.wrote(tRevoke.run(at, token).changes > 0),
    },
  };
}
export type SiteStore = ReturnType<typeof createSiteStore>;

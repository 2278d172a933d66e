// Sites, their keys and access tokens (the console's "Manage site" pages).
import type { Clock } from '../domain/clock.js';
import { DEFAULT_BOUNCE_SECONDS, DEFAULT_CONVERSION_EVENTS, DEFAULT_SITE_NAME, type AccessToken, type Plan, type Site } from '../domain/site.js';
import { formatMicros } from '../domain/time.js';
import { newId, safeEqual } from '../domain/ids.js';
import { notFound, shownId, VtrError } from '../domain/errors.js';
import type { Store } from '../store/index.js';
import type { EventBus } from '../events/bus.js';

export interface SiteInput {
  name?: string;
  plan?: Plan;
  country?: string | null;
  owner_email?: string | null;
  conversion_events?: string[];
  bounce_seconds?: number;
  excluded_countries?: string[];
  ip_allowlist?: string[];
}

/** A site's id and keys, and maybe an access token of it: what a state reset keeps of the default site. */
export interface SiteKeys {
  site_id: string;
  site_key: string;
  secret_key: string;
  token: Pick<AccessToken, 'token' | 'created_at'> | null;
}

export function createSiteService({ store, clock, bus }: { store: Store; clock: Clock; bus?: EventBus }) {
  const now = () => formatMicros(clock.nowMicros());
  const announce = (type: 'site.created' | 'site.updated' | 'site.deleted', site: Site) => bus?.publish({ type, data: { ...site } });
  // Told when a site's plan changes: held webhook deliveries of a site back on `paid` run at once.
  const planListeners: Array<(site: Site) => void> = [];

  function get(siteId: string): Site {
    const site = store.sites.get(siteId);
    if (!site) throw notFound(`site ${shownId(siteId)}`);
    return site;
  }

  /** `kept`: a token to give the site again (a reset keeps the default site's), valid. */
  function createToken(siteId: string, kept?: Pick<AccessToken, 'token' | 'created_at'>): AccessToken {
    get(siteId);
    const token: AccessToken = { token: kept?.token ?? newId.accessToken(), site_id: siteId, created_at: kept?.created_at ?? now(), revoked_at: null };
    store.sites.tokens.insert(token);
    bus?.publish({ type: 'access_token.created', data: { ...token } });
    return token;
  }

  function create(input: SiteInput, opts: { isDefault?: boolean; keys?: SiteKeys } = {}): Site {
    const site: Site = {
      site_id: opts.keys?.site_id ?? newId.site(),
      name: input.name ?? DEFAULT_SITE_NAME,
      plan: input.plan ?? 'paid',
      country: input.country === undefined ? 'US' : (input.country?.toUpperCase() ?? null),
      owner_email: input.owner_email ?? null,
      site_key: opts.keys?.site_key ?? newId.siteKey(),
      secret_key: opts.keys?.secret_key ?? newId.secretKey(),
      conversion_events: input.conversion_events ?? [...DEFAULT_CONVERSION_EVENTS],
      bounce_seconds: input.bounce_seconds ?? DEFAULT_BOUNCE_SECONDS,
      excluded_countries: (input.excluded_countries ?? []).map((c) => c.toUpperCase()),
      ip_allowlist: input.ip_allowlist ?? [],
      is_default: opts.isDefault ?? false,
      created_at: now(),
    };
    store.sites.insert(site);
    announce('site.created', site);
    return site;
  }

  return {
    get,
    /** The site, or null when there is none with this id. */
    find: (siteId: string): Site | null => store.sites.get(siteId),
    create,
    list: () => store.sites.list(),
    update(siteId: string, input: SiteInput): Site {
      const site = get(siteId);
      const next: Site = {
        ...site,
        ...Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)),
      };
      if (input.country !== undefined) next.country = input.country?.toUpperCase() ?? null;
      if (input.excluded_countries) next.excluded_countries = input.excluded_countries.map((c) => c.toUpperCase());
      // Nothing changed ({} or the values it has): nothing to save or tell the stream's listeners.
      if (JSON.stringify(next) === JSON.stringify(site)) return site;
      store.sites.update(next);
      announce('site.updated', next);
      if (next.plan !== site.plan) for (const fn of planListeners) fn(next);
      return next;
    },
    onPlanChanged(fn: (site: Site) => void): void {
      planListeners.push(fn);
    },
    delete(siteId: string) {
      const site = get(siteId);
      if (site.is_default && store.sites.count() === 1) throw new VtrError('conflict', 'the last site cannot be deleted: create another first (`vtr sites create`), or empty it with `vtr state reset`');
      // The oldest site left takes the default's place, marked so, as the CLI and `serve --json` say.
      const heir = store.tx(() => {
        store.sites.delete(siteId);
        if (!site.is_default) return null;
        const next = store.sites.list()[0];
        if (!next) return null;
        const promoted = { ...next, is_default: true };
        store.sites.update(promoted);
        return promoted;
      });
      announce('site.deleted', site);
      if (heir) announce('site.updated', heir);
    },
    /** New site key and secret key; the old ones stop working at once. */
    rotateKeys(siteId: string): Site {
      const site = { ...get(siteId), site_key: newId.siteKey(), secret_key: newId.secretKey() };
      store.sites.update(site);
      announce('site.updated', site);
      return site;
    },
    /** The default site (created on first start). */
    defaultSite(): Site {
      const sites = store.sites.list();
      const site = sites.find((s) => s.is_default) ?? sites[0];
      if (!site) throw notFound('default site');
      return site;
    },
    bySecretKey(secret: unknown): Site | null {
      if (typeof secret !== 'string' || secret.length === 0 || secret.length > 200) return null;
      const site = store.sites.bySecretKey(secret);
      // The lookup is by index; compare again in constant time so timing says nothing of a near miss.
      return site && safeEqual(site.secret_key, secret) ? site : null;
    },
    bySiteKey: (key: string) => (key.length > 200 ? null : store.sites.bySiteKey(key)),
    /** The site an access token reads, or null when the token is unknown or revoked. */
    siteForToken(token: string): Site | null {
      if (token.length > 200) return null;
      const t = store.sites.tokens.get(token);
      if (!t || t.revoked_at || !safeEqual(t.token, token)) return null;
      return store.sites.get(t.site_id);
    },
    /** Like siteForToken, but only the site's id: no site row to read (the public session routes). */
    siteIdForToken(token: string): string | null {
      if (token.length > 200) return null;
      const t = store.sites.tokens.withSite(token);
      if (!t || t.revoked_at || !safeEqual(t.token, token)) return null;
      return t.site_id;
    },
    tokens: {
      create: createToken,
      list: (siteId?: string) => (siteId ? store.sites.tokens.forSite(siteId) : store.sites.tokens.list()),
      revoke(token: string): AccessToken {
        const t = store.sites.tokens.get(token);
        if (!t) throw notFound('access token');
        store.sites.tokens.revoke(token, now());
        const revoked = store.sites.tokens.get(token)!;
        bus?.publish({ type: 'access_token.revoked', data: { ...revoked } });
        return revoked;
      },
    },
    /**
     * First start on an empty database: a default site with keys and a token. `keys`: the id, keys
     * and token it gets instead of new ones (a reset keeps them), its settings still those of a first start.
     */
    bootstrap(keys?: SiteKeys): { site: Site; token: AccessToken } | null {
      if (store.sites.count() > 0) return null;
      return store.tx(() => {
        if (store.sites.count() > 0) return null; // another process sharing the file was first
        const site = create({ name: 'Local site', plan: 'paid', country: 'US', owner_email: 'owner@example.com' }, { isDefault: true, keys });
        return { site, token: createToken(site.site_id, keys?.token ?? undefined) };
      });
    },
  };
}

export type SiteService = ReturnType<typeof createSiteService>;

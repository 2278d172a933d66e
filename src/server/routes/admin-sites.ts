import type { Hono } from 'hono';
import { z } from 'zod';
import { isValidAllowlistEntry } from '../../domain/ip-allowlist.js';
import { PLANS } from '../../domain/site.js';
import type { AppDeps } from '../deps.js';
import { readJsonObject, route, param, querySite } from '../http.js';
import { validate } from '../validate.js';

const country = z.string().regex(/^[A-Za-z]{2}$/, 'must be a two-letter ISO 3166-1 country code');
const siteFields = {
  name: z.string().min(1).max(200),
  plan: z.enum(PLANS, { error: `must be one of ${PLANS.join(', ')}` }),
  country: country.nullable(),
  owner_email: z.email('must be an email address').nullable(),
  conversion_events: z.array(z.string().min(1).max(100)).max(100),
  bounce_seconds: z.number().int().min(0).max(86_400),
  excluded_countries: z.array(country).max(300),
  ip_allowlist: z.array(z.string().refine(isValidAllowlistEntry, 'each entry must be an IP address or CIDR range')).max(1000),
};
const siteUpdate = z.strictObject(siteFields).partial();

export function adminSiteRoutes(app: Hono, { sites }: AppDeps): void {
  route(app, '/_vtr/api/sites', {
    GET: (c) => c.json(sites.list()),
    POST: async (c) => c.json(sites.create(validate(siteUpdate, await readJsonObject(c))), 201),
  });
  route(app, '/_vtr/api/sites/default', { GET: (c) => c.json(sites.defaultSite()) });
  route(app, '/_vtr/api/sites/:id', {
    GET: (c) => c.json(sites.get(param(c, 'id'))),
    PATCH: async (c) => c.json(sites.update(param(c, 'id'), validate(siteUpdate, await readJsonObject(c)))),
    DELETE: (c) => {
      sites.delete(param(c, 'id'));
      return c.json({ deleted: true, site_id: param(c, 'id') });
    },
  });
  route(app, '/_vtr/api/sites/:id/keys', {
    GET: (c) => {
      const s = sites.get(param(c, 'id'));
      return c.json({ site_id: s.site_id, site_key: s.site_key, secret_key: s.secret_key });
    },
  });
  route(app, '/_vtr/api/sites/:id/keys/rotate', {
    POST: (c) => {
      const s = sites.rotateKeys(param(c, 'id'));
      return c.json({ site_id: s.site_id, site_key: s.site_key, secret_key: s.secret_key });
    },
  });
  route(app, '/_vtr/api/sites/:id/tokens', {
    GET: (c) => c.json(sites.tokens.list(sites.get(param(c, 'id')).site_id)),
    POST: (c) => c.json(sites.tokens.create(param(c, 'id')), 201),
  });
  route(app, '/_vtr/api/tokens', { GET: (c) => c.json(sites.tokens.list(querySite(c, { sites }))) });
  route(app, '/_vtr/api/tokens/:token', {
    DELETE: (c) => c.json(sites.tokens.revoke(param(c, 'token'))),
  });
}

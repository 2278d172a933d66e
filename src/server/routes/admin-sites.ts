// Sites, keys and access tokens, mounted from their declarations (api/management/sites.ts).
import type { Hono } from 'hono';
import * as r from '../../api/management/sites.js';
import type { Site } from '../../domain/site.js';
import type { AppDeps } from '../deps.js';
import { readChange, readJsonObject, param, querySite, siteParam } from '../http.js';
import { mount } from '../mount.js';
import { validate } from '../validate.js';

const keysOf = (s: Site) => ({ site_id: s.site_id, site_key: s.site_key, secret_key: s.secret_key });

export function adminSiteRoutes(app: Hono, { sites }: AppDeps): void {
  const id = (c: Parameters<typeof param>[0]) => siteParam(c, { sites });
  mount(app, [
    [r.listSitesRoute, (c) => c.json(sites.list())],
    [r.createSiteRoute, async (c) => c.json(sites.create(validate(r.SiteInput, await readJsonObject(c))), 201)],
    [r.getDefaultSiteRoute, (c) => c.json(sites.defaultSite())],
    [r.getSiteRoute, (c) => c.json(sites.get(id(c)))],
    [r.updateSiteRoute, async (c) => c.json(sites.update(id(c), validate(r.SiteUpdate, await readChange(c, '{"name": "Shop"}'))))],
    [r.deleteSiteRoute, (c) => {
      const siteId = id(c); // read once: after the delete, `default` names another site
      sites.delete(siteId);
      return c.json({ deleted: true, site_id: siteId });
    }],
    [r.getSiteKeysRoute, (c) => c.json(keysOf(sites.get(id(c))))],
    [r.rotateSiteKeysRoute, (c) => c.json(keysOf(sites.rotateKeys(id(c))))],
    [r.listSiteTokensRoute, (c) => c.json(sites.tokens.list(sites.get(id(c)).site_id))],
    [r.createTokenRoute, (c) => c.json(sites.tokens.create(id(c)), 201)],
    [r.listTokensRoute, (c) => c.json(sites.tokens.list(querySite(c, { sites })))],
    [r.revokeTokenRoute, (c) => c.json(sites.tokens.revoke(param(c, 'token')))],
  ]);
}

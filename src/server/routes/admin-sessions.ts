// Sessions through the management API: list, read, create (api/management/sessions.ts).
import type { Hono } from 'hono';
import { createSessionRoute, getSessionAdminRoute, listSessionsRoute, SessionCreate } from '../../api/management/sessions.js';
import type { AppDeps } from '../deps.js';
import { readJsonObject, param, queryLimit, querySite, siteParam } from '../http.js';
import { mount } from '../mount.js';
import { validate } from '../validate.js';
import { createSessionsFromSpec } from '../../sessions/create.js';

export function adminSessionRoutes(app: Hono, deps: AppDeps): void {
  mount(app, [
    [listSessionsRoute, (c) => {
      const limit = queryLimit(c.req.query('limit'), 50);
      const siteId = querySite(c, deps);
      // `where=` given empty is an empty filter (a 400), not "no filter": a script's unset variable must not list every session.
      return c.json(deps.sessions.list({ siteId, where: c.req.query('where'), limit, before: c.req.query('before') || undefined }));
    }],
    [createSessionRoute, async (c) => {
      const site = deps.sites.get(siteParam(c, deps));
      const spec = validate(SessionCreate, await readJsonObject(c));
      return c.json(createSessionsFromSpec(deps, site, spec), 201);
    }],
    [getSessionAdminRoute, (c) => c.json(deps.sessions.get(param(c, 'session_id')))],
  ]);
}

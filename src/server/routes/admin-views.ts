// Saved views, mounted from their declarations (api/management/views.ts).
import type { Hono } from 'hono';
import * as r from '../../api/management/views.js';
import type { AppDeps } from '../deps.js';
import { param, queryLimit, querySite, readChange, readJsonObject, siteParam } from '../http.js';
import { mount } from '../mount.js';
import { validate } from '../validate.js';

export function adminViewRoutes(app: Hono, deps: AppDeps): void {
  const { views } = deps;
  if (!views) return;
  const id = (c: Parameters<typeof param>[0]) => param(c, 'saved_view_id');
  mount(app, [
    // Views are few (settings, not traffic): `limit` is honoured, no cursor.
    [r.listViewsRoute, (c) => c.json(views.list(querySite(c, deps)).slice(0, queryLimit(c.req.query('limit'), 10_000)))],
    [r.listSiteViewsRoute, (c) => c.json(views.list(siteParam(c, deps)))],
    [r.createViewRoute, async (c) => c.json(views.create(siteParam(c, deps), validate(r.ViewCreate, await readJsonObject(c))), 201)],
    [r.getViewRoute, (c) => c.json(views.get(id(c)))],
    [r.updateViewRoute, async (c) => c.json(views.update(id(c), validate(r.ViewUpdate, await readChange(c, '{"filter": "risk_level = invalid"}'))))],
    [r.deleteViewRoute, (c) => {
      const v = views.delete(id(c));
      return c.json({ deleted: true, saved_view_id: v.saved_view_id });
    }],
  ]);
}

// Management API for visitor checks: list (newest first) and one by id.
import type { Hono } from 'hono';
import { notFound } from '../../domain/errors.js';
import type { AppDeps } from '../deps.js';
import { param, queryLimit, querySite, route } from '../http.js';

export function adminCheckRoutes(app: Hono, { sites, checks }: AppDeps): void {
  route(app, '/_vtr/api/checks', {
    GET: (c) => {
      const limit = queryLimit(c.req.query('limit'), 50);
      const siteId = querySite(c, { sites });
      return c.json(checks.list({ siteId, sessionId: c.req.query('session') || undefined, limit, before: c.req.query('before') || undefined }));
    },
  });
  route(app, '/_vtr/api/checks/:id', {
    GET: (c) => {
      const check = checks.get(param(c, 'id'));
      if (!check) throw notFound('check');
      return c.json(check);
    },
  });
}

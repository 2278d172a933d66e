// Management API for visitor checks: list (newest first) and one by id.
import type { Hono } from 'hono';
import { VtrError, notFound } from '../../domain/errors.js';
import type { AppDeps } from '../deps.js';
import { param, route } from '../http.js';

export function adminCheckRoutes(app: Hono, { sites, checks }: AppDeps): void {
  route(app, '/_vtr/api/checks', {
    GET: (c) => {
      const limit = Number(c.req.query('limit') ?? 50);
      if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw new VtrError('invalid_request', 'limit: must be a whole number from 1 to 10000');
      const siteId = c.req.query('site') || undefined;
      if (siteId) sites.get(siteId);
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

// GET /_vtr/api/logs?limit=&before=&site=: the public-API request log, newest first.
import type { Hono } from 'hono';
import { notFound, VtrError } from '../../domain/errors.js';
import type { AppDeps } from '../deps.js';
import { param, route } from '../http.js';

export function adminLogRoutes(app: Hono, deps: AppDeps): void {
  const log = deps.requestLog;
  if (!log) return;
  route(app, '/_vtr/api/logs', {
    GET: async (c) => {
      await log.settle();
      const limit = Number(c.req.query('limit') ?? 100);
      if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw new VtrError('invalid_request', 'limit: must be a whole number from 1 to 10000');
      return c.json(log.list({ limit, before: c.req.query('before') || undefined, siteId: c.req.query('site') || undefined }));
    },
  });
  route(app, '/_vtr/api/logs/:id', {
    GET: async (c) => {
      await log.settle();
      const entry = log.get(param(c, 'id'));
      if (!entry) throw notFound('request log entry');
      return c.json(entry);
    },
  });
}

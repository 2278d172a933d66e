// GET /_vtr/api/logs?limit=&before=&site=: the public-API request log, newest first.
import type { Hono } from 'hono';
import { notFound } from '../../domain/errors.js';
import type { AppDeps } from '../deps.js';
import { param, queryLimit, querySite, route } from '../http.js';

export function adminLogRoutes(app: Hono, deps: AppDeps): void {
  const log = deps.requestLog;
  if (!log) return;
  route(app, '/_vtr/api/logs', {
    GET: async (c) => {
      await log.settle();
      const limit = queryLimit(c.req.query('limit'), 100);
      return c.json(log.list({ limit, before: c.req.query('before') || undefined, siteId: querySite(c, deps) }));
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

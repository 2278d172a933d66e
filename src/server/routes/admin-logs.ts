// GET /_vtr/api/logs?limit=&before=&site=: the public-API request log, newest first (api/management/logs.ts).
import type { Hono } from 'hono';
import { getLogRoute, listLogsRoute } from '../../api/management/logs.js';
import { notFound } from '../../domain/errors.js';
import type { AppDeps } from '../deps.js';
import { param, queryLimit, querySite } from '../http.js';
import { mount } from '../mount.js';

export function adminLogRoutes(app: Hono, deps: AppDeps): void {
  const log = deps.requestLog;
  if (!log) return;
  mount(app, [
    [listLogsRoute, async (c) => {
      await log.settle();
      const limit = queryLimit(c.req.query('limit'), 100);
      return c.json(log.list({ limit, before: c.req.query('before') || undefined, siteId: querySite(c, deps) }));
    }],
    [getLogRoute, async (c) => {
      await log.settle();
      const entry = log.get(param(c, 'request_id'));
      if (!entry) throw notFound('request log entry');
      return c.json(entry);
    }],
  ]);
}

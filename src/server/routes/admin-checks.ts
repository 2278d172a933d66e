// Management API for visitor checks: list (newest first) and one by id (api/management/checks.ts).
import type { Hono } from 'hono';
import { getCheckRoute, listChecksRoute } from '../../api/management/checks.js';
import { notFound, shownId } from '../../domain/errors.js';
import type { AppDeps } from '../deps.js';
import { param, queryLimit, querySite } from '../http.js';
import { mount } from '../mount.js';

export function adminCheckRoutes(app: Hono, { sites, checks, sessions }: AppDeps): void {
  mount(app, [
    [listChecksRoute, (c) => {
      const limit = queryLimit(c.req.query('limit'), 50);
      const siteId = querySite(c, { sites });
      const sessionId = c.req.query('session') || undefined;
      // An unknown session is a 404, as an unknown ?site= is: a mistyped id never reads as "no checks".
      if (sessionId && !sessions.find(sessionId)) throw notFound(`session ${shownId(sessionId)}`);
      return c.json(checks.list({ siteId, sessionId, limit, before: c.req.query('before') || undefined }));
    }],
    [getCheckRoute, (c) => {
      const check = checks.get(param(c, 'check_id'));
      if (!check) throw notFound('check');
      return c.json(check);
    }],
  ]);
}

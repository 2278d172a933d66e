// POST /api/v1/event: the visitor check (rules in ../public-api.ts).
import type { Hono } from 'hono';
import type { PublicApi } from '../public-api.js';
import { readJsonObject, route, sendJson } from '../http.js';

export function publicEventRoutes(app: Hono, api: PublicApi): void {
  route(app, '/api/v1/event', {
    POST: async (c) => {
      const { siteId, result } = await api.check(await readJsonObject(c), c.req.header('authorization'));
      c.set('siteId', siteId);
      return sendJson(c, result);
    },
  });
}

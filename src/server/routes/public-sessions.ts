// GET /api/v1/session/{id} and POST /api/v1/session/{id}/event (rules in ../public-api.ts, shared
// with the direct path).
import type { Hono } from 'hono';
import type { PublicApi } from '../public-api.js';
import { readJsonObject, route, param } from '../http.js';

export function publicSessionRoutes(app: Hono, api: PublicApi): void {
  route(app, '/api/v1/session/:id', {
    GET: (c) => c.json(api.getSession(api.authorize(c.req.header('authorization')), param(c, 'id'))),
  });

  route(app, '/api/v1/session/:id/event', {
    POST: async (c) => {
      const siteId = api.authorize(c.req.header('authorization'));
      return c.json(api.addEvent(siteId, param(c, 'id'), await readJsonObject(c)));
    },
  });
}

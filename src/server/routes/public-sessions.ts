// GET /api/v1/session/{id}, POST /api/v1/session/{id}/event and PUT /api/v1/session/{id}/conversion
// (rules in ../public-api.ts).
import type { Context, Hono } from 'hono';
import type { PublicApi } from '../public-api.js';
import { readJsonObject, route, param, sendJson } from '../http.js';

export function publicSessionRoutes(app: Hono, api: PublicApi): void {
  // The token is checked before the body is read: a bad token with a bad body is a 401.
  const site = (c: Context): string => {
    const siteId = api.authorize(c.req.header('authorization'));
    c.set('siteId', siteId);
    return siteId;
  };

  route(app, '/api/v1/session/:id', {
    GET: (c) => sendJson(c, api.getSession(site(c), param(c, 'id'))),
  });

  route(app, '/api/v1/session/:id/event', {
    POST: async (c) => {
      const siteId = site(c);
      return sendJson(c, await api.addEvent(siteId, param(c, 'id'), await readJsonObject(c)));
    },
  });

  // No body needed (one that is sent is not read): idempotent, as on the hosted service.
  route(app, '/api/v1/session/:id/conversion', {
    PUT: async (c) => sendJson(c, await api.convert(site(c), param(c, 'id'))),
  });
}

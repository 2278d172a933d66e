// GET /api/v1/session/{id}, POST /api/v1/session/{id}/event and PUT /api/v1/session/{id}/conversion,
// mounted from their declarations (rules in ../public-api.ts).
import type { Context, Hono } from 'hono';
import { addCustomEventRoute, convertSessionRoute, getSessionRoute } from '../../api/routes.js';
import type { PublicApi } from '../public-api.js';
import { noteSite, readJsonObject, param, sendJson } from '../http.js';
import { mount } from '../mount.js';

export function publicSessionRoutes(app: Hono, api: PublicApi): void {
  // The token is checked before the body is read: a bad token with a bad body is a 401.
  const site = (c: Context): string => {
    const siteId = api.authorize(c.req.header('authorization'));
    noteSite(c, siteId);
    return siteId;
  };

  mount(app, [
    [getSessionRoute, (c) => sendJson(c, api.getSession(site(c), param(c, 'id')))],
    [addCustomEventRoute, async (c) => {
      const siteId = site(c);
      return sendJson(c, await api.addEvent(siteId, param(c, 'id'), await readJsonObject(c)));
    }],
    // No body needed (one that is sent is not read): idempotent, as on the hosted service.
    [convertSessionRoute, async (c) => sendJson(c, await api.convert(site(c), param(c, 'id')))],
  ]);
}

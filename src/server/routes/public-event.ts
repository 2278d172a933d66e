// POST /api/v1/event: the visitor check, mounted from its declaration (rules in ../public-api.ts).
import type { Hono } from 'hono';
import { checkVisitorRoute } from '../../api/routes.js';
import type { PublicApi } from '../public-api.js';
import { noteSite, readJsonObject, sendJson } from '../http.js';
import { mount } from '../mount.js';

export function publicEventRoutes(app: Hono, api: PublicApi): void {
  mount(app, [
    [checkVisitorRoute, async (c) => {
      const { siteId, result } = await api.check(await readJsonObject(c), c.req.header('authorization'));
      noteSite(c, siteId);
      return sendJson(c, result);
    }],
  ]);
}

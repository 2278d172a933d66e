// POST /api/v1/event: the visitor check (rules in ../public-api.ts, shared with the direct path).
import type { Hono } from 'hono';
import type { PublicApi } from '../public-api.js';
import { readJsonObject, route } from '../http.js';

export function publicEventRoutes(app: Hono, api: PublicApi): void {
  route(app, '/api/v1/event', {
    POST: async (c) => c.json(api.check(await readJsonObject(c)).result),
  });
}

// POST /api/v1/event: the visitor check (rules in ../public-api.ts, shared with the direct path).
import type { Hono } from 'hono';
import type { PublicApi } from '../public-api.js';
import { readJsonObject, route } from '../http.js';

export function publicEventRoutes(app: Hono, api: PublicApi): void {
  route(app, '/api/v1/event', {
    // A Node Buffer over a plain ArrayBuffer (never shared): the Uint8Array Hono's types ask for.
    POST: async (c) => c.body(api.check(await readJsonObject(c)).bytes as Uint8Array<ArrayBuffer>, 200, { 'content-type': 'application/json' }),
  });
}

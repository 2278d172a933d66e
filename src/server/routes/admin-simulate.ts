// POST /_vtr/api/sites/{site_id}/sessions/simulate: realistic mixed traffic for a site (seeded).
import type { Hono } from 'hono';
import { SimulateRequest, simulateSessionsRoute } from '../../api/management/sessions.js';
import type { AppDeps } from '../deps.js';
import { readJsonObject, siteParam } from '../http.js';
import { mount } from '../mount.js';
import { validate } from '../validate.js';
import { simulateSessions } from '../../sessions/simulate.js';

export function adminSimulateRoutes(app: Hono, deps: AppDeps): void {
  mount(app, [
    [simulateSessionsRoute, async (c) => {
      const site = deps.sites.get(siteParam(c, deps));
      const body = validate(SimulateRequest, await readJsonObject(c));
      return c.json(await simulateSessions(deps, site, { count: body.count, seed: body.seed, spanSeconds: body.span_seconds }), 201);
    }],
  ]);
}

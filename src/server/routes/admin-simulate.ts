// POST /_vtr/api/sites/:id/sessions/simulate: realistic mixed traffic for a site (seeded).
import type { Hono } from 'hono';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { param, readJsonObject, route } from '../http.js';
import { validate } from '../validate.js';
import { MAX_SIMULATE, simulateSessions } from '../../sessions/simulate.js';

const simulateBody = z.strictObject({
  count: z.number({ error: 'required, a whole number' }).int('must be a whole number').min(1, 'must be at least 1').max(MAX_SIMULATE, `must be at most ${MAX_SIMULATE}`),
  seed: z.union([z.number().int().min(0), z.string().min(1).max(200)], { error: 'expected a non-negative integer or a string' }).optional(),
  span_seconds: z.number().int().min(60).max(86_400 * 365).optional(),
});

export function adminSimulateRoutes(app: Hono, deps: AppDeps): void {
  route(app, '/_vtr/api/sites/:id/sessions/simulate', {
    POST: async (c) => {
      const site = deps.sites.get(param(c, 'id'));
      const body = validate(simulateBody, await readJsonObject(c));
      return c.json(await simulateSessions(deps, site, { count: body.count, seed: body.seed, spanSeconds: body.span_seconds }), 201);
    },
  });
}

import type { Hono } from 'hono';
import { z } from 'zod';
import { isIpAddress } from '../../domain/ip-intel.js';
import { canonicalLanguage, canonicalTimezone } from '../../domain/locale.js';
import type { AppDeps } from '../deps.js';
import { readJsonObject, route, param, queryLimit, querySite } from '../http.js';
import { validate } from '../validate.js';
import { createSessionsFromSpec } from '../../sessions/create.js';

const createBody = z.strictObject({
  ip: z.string().max(100).refine(isIpAddress, 'must be an IPv4 or IPv6 address').nullable().optional(),
  user_agent: z.string().max(2000).nullable().optional(),
  url: z.string().max(8000).optional(),
  referrer: z.string().max(8000).nullable().optional(),
  language: z.string().max(50).refine((v) => canonicalLanguage(v) !== null, 'must be an IETF language tag, e.g. en-US').nullable().optional(),
  timezone: z.string().max(100).refine((v) => canonicalTimezone(v) !== null, 'must be a tz database name, e.g. Europe/Berlin').nullable().optional(),
  page_views: z.number().int().min(1).max(10_000).optional(),
  duration: z.number().int().min(0).max(86_400 * 7).optional(),
  fingerprint: z.string().min(1).max(200).optional(),
  custom_events: z.array(z.string().min(1).max(100)).max(1000).optional(),
});

export function adminSessionRoutes(app: Hono, deps: AppDeps): void {
  route(app, '/_vtr/api/sessions', {
    GET: (c) => {
      const limit = queryLimit(c.req.query('limit'), 50);
      const siteId = querySite(c, deps);
      return c.json(deps.sessions.list({ siteId, where: c.req.query('where') || undefined, limit, before: c.req.query('before') || undefined }));
    },
  });
  route(app, '/_vtr/api/sites/:id/sessions', {
    POST: async (c) => {
      const site = deps.sites.get(param(c, 'id'));
      const spec = validate(createBody, await readJsonObject(c));
      return c.json(createSessionsFromSpec(deps, site, spec), 201);
    },
  });
  route(app, '/_vtr/api/sessions/:id', {
    GET: (c) => c.json(deps.sessions.get(param(c, 'id'))),
  });
}

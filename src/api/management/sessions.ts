// Sessions through the management API: list (any site, with a filter), read, create from page views,
// simulate traffic. /_vtr/api/sessions..., /_vtr/api/sites/{site_id}/sessions...
import * as z from 'zod';
import { isIpAddress } from '../../domain/ip-intel.js';
import { canonicalLanguage, canonicalTimezone } from '../../domain/locale.js';
import { declareRoute, json } from '../declare.js';
import { customEventName } from '../public.js';
import { SessionSchema } from '../session.js';
import { before, failures, limit, MANAGEMENT_SECURITY as security, MANAGEMENT_TAG, pathId, SiteParams, siteFilter } from './common.js';

const tags = [MANAGEMENT_TAG];

/** At most this many sessions in one simulation. */
export const MAX_SIMULATE = 1_000_000;

/** One session, from the page views the agent would send (every field optional). */
export const SessionCreate = z
  .strictObject({
    ip: z.string().max(100).refine(isIpAddress, 'must be an IPv4 or IPv6 address').nullable().optional(),
    user_agent: z.string().max(2000).nullable().optional().meta({ description: 'Default: Chrome on Windows; null, or an empty string, for none' }),
    url: z.string().max(8000).regex(/\S/, 'must not be empty or blank').optional().meta({ description: 'The landing page (its query gives the channel)' }),
    referrer: z.string().max(8000).nullable().optional(),
    language: z.string().max(50).refine((v) => canonicalLanguage(v) !== null, 'must be an IETF language tag, e.g. en-US').nullable().optional(),
    timezone: z.string().max(100).refine((v) => canonicalTimezone(v) !== null, 'must be a tz database name, e.g. Europe/Berlin').nullable().optional(),
    page_views: z.number().int().min(1).max(10_000).optional(),
    duration: z.number().int().min(0).max(86_400 * 7).optional().meta({ description: 'Seconds from the first to the last page view' }),
    fingerprint: z.string().min(1, 'must not be empty or blank').max(200).regex(/\S/, 'must not be empty or blank').optional(),
    custom_events: z.array(customEventName()).max(1000).optional(),
  })
  .meta({ id: 'SessionCreate' });

export const SimulateRequest = z
  .strictObject({
    count: z.number({ error: (iss) => (iss.input === undefined ? 'required, a whole number' : 'expected a whole number') }).int('must be a whole number').min(1, 'must be at least 1').max(MAX_SIMULATE, `must be at most ${MAX_SIMULATE}`),
    seed: z.union([z.number().int().min(0), z.string().min(1).max(200)], { error: 'expected a non-negative integer or a string' }).optional(),
    span_seconds: z.number().int().min(60).max(86_400 * 365).optional().meta({ description: 'The sessions start over this many seconds, ending now (default one day)' }),
  })
  .meta({ id: 'SimulateRequest' });

const counts = z.record(z.string(), z.number().int());
export const SimulateSummary = z
  .looseObject({
    site_id: z.string(), count: z.number().int(), seed: z.number().int(), page_views: z.number().int(), custom_events: z.number().int(),
    returning_visitors: z.number().int(), duration_ms: z.number(), sessions_per_second: z.number(),
    by_channel: counts, by_risk_level: counts, by_engagement_level: counts, by_device_type: counts, by_country: counts,
    sample_session_ids: z.array(z.string()).meta({ description: 'Newest first, at most 5' }),
  })
  .meta({ id: 'SimulateSummary' });

const SessionParams = z.object({ session_id: pathId('session_id', 'The session') });

export const listSessionsRoute = declareRoute({
  method: 'get', path: '/_vtr/api/sessions', operationId: 'listSessions', summary: 'Sessions, newest first', tags, security,
  request: {
    query: z.object({
      limit: limit(50), site: siteFilter, before,
      where: z.string().optional().meta({ description: 'A filter in the saved-view language, e.g. `risk_level = invalid and actions contains block`' }),
    }),
  },
  responses: { 200: { description: 'The sessions', content: json(z.array(SessionSchema)) }, ...failures('read', 400, 404) },
});
export const createSessionRoute = declareRoute({
  method: 'post', path: '/_vtr/api/sites/{site_id}/sessions', operationId: 'createSession', summary: 'Create a session from page views', tags, security,
  request: { params: SiteParams, body: { required: false, content: json(SessionCreate) } },
  responses: { 201: { description: 'The new session', content: json(SessionSchema) }, ...failures('write', 404) },
});
export const getSessionAdminRoute = declareRoute({
  method: 'get', path: '/_vtr/api/sessions/{session_id}', operationId: 'getSessionOfAnySite', summary: 'Read a session of any site', tags, security,
  request: { params: SessionParams },
  responses: { 200: { description: 'The session', content: json(SessionSchema) }, ...failures('read', 404) },
});
export const simulateSessionsRoute = declareRoute({
  method: 'post', path: '/_vtr/api/sites/{site_id}/sessions/simulate', operationId: 'simulateSessions', summary: 'Realistic mixed traffic for a site (seeded)', tags, security,
  request: { params: SiteParams, body: { required: true, content: json(SimulateRequest) } },
  responses: { 201: { description: 'What was made', content: json(SimulateSummary) }, ...failures('write', 404) },
});

export const SESSION_ROUTES = [listSessionsRoute, createSessionRoute, getSessionAdminRoute] as const;
export const SIMULATE_ROUTES = [simulateSessionsRoute] as const;

// What each API route answers on success, for the client to check before anyone reads a field.
// The public routes use the very schemas their route declarations (routes.ts) answer with; unknown
// fields are allowed everywhere (a newer emulator may answer more). Imports zod only, not the
// OpenAPI generator: the client loads this when it first checks an answer.
import type { z } from 'zod';
import { CheckResult } from './check.js';
import * as m from './management.js';
import { CustomEventResponse } from './public.js';
import { SessionSchema } from './session.js';

/**
 * `METHOD path` (the management API under `/_vtr/api`, the public API under `/api/v1` whatever the
 * base URL's own path) → what a 2xx answer is. `*` is one path segment. A route not listed is only
 * required to answer JSON.
 */
const ROUTES: Array<[string, z.ZodType]> = [
  ['GET /_vtr/api/sites', m.ListAnswer],
  ['POST /_vtr/api/sites', m.SiteAnswer],
  ['GET /_vtr/api/sites/default', m.SiteAnswer],
  ['GET /_vtr/api/sites/*', m.SiteAnswer],
  ['PATCH /_vtr/api/sites/*', m.SiteAnswer],
  ['DELETE /_vtr/api/sites/*', m.DeletedAnswer],
  ['GET /_vtr/api/sites/*/keys', m.SiteAnswer],
  ['POST /_vtr/api/sites/*/keys/rotate', m.SiteAnswer],
  ['GET /_vtr/api/sites/*/tokens', m.ListAnswer],
  ['POST /_vtr/api/sites/*/tokens', m.TokenAnswer],
  ['GET /_vtr/api/tokens', m.ListAnswer],
  ['DELETE /_vtr/api/tokens/*', m.TokenAnswer],
  ['GET /_vtr/api/sessions', m.ListAnswer],
  ['GET /_vtr/api/sessions/*', m.SessionAnswer],
  ['POST /_vtr/api/sites/*/sessions', m.SessionAnswer],
  ['POST /_vtr/api/sites/*/sessions/simulate', m.SimulateAnswer],
  ['GET /_vtr/api/sessions/*/webhook-events', m.ListAnswer],
  ['GET /_vtr/api/checks', m.ListAnswer],
  ['GET /_vtr/api/checks/*', m.CheckRecordAnswer],
  ['GET /_vtr/api/logs', m.ListAnswer],
  ['GET /_vtr/api/notifications', m.ListAnswer],
  ['GET /_vtr/api/clock', m.ClockAnswer],
  ['POST /_vtr/api/clock/advance', m.ClockAnswer],
  ['POST /_vtr/api/clock/set', m.ClockAnswer],
  ['GET /_vtr/api/views', m.ListAnswer],
  ['GET /_vtr/api/sites/*/views', m.ListAnswer],
  ['POST /_vtr/api/sites/*/views', m.ViewAnswer],
  ['GET /_vtr/api/views/*', m.ViewAnswer],
  ['PATCH /_vtr/api/views/*', m.ViewAnswer],
  ['DELETE /_vtr/api/views/*', m.DeletedAnswer],
  ['GET /_vtr/api/sites/*/rules', m.ListAnswer],
  ['POST /_vtr/api/sites/*/rules', m.RuleAnswer],
  ['GET /_vtr/api/sites/*/rules/*', m.RuleAnswer],
  ['PATCH /_vtr/api/sites/*/rules/*', m.RuleAnswer],
  ['DELETE /_vtr/api/sites/*/rules/*', m.DeletedAnswer],
  ['GET /_vtr/api/webhooks', m.ListAnswer],
  ['GET /_vtr/api/sites/*/webhooks', m.ListAnswer],
  ['POST /_vtr/api/sites/*/webhooks', m.WebhookAnswer],
  ['GET /_vtr/api/webhooks/*', m.WebhookAnswer],
  ['PATCH /_vtr/api/webhooks/*', m.WebhookAnswer],
  ['DELETE /_vtr/api/webhooks/*', m.DeletedAnswer],
  ['POST /_vtr/api/webhooks/*/enable', m.WebhookAnswer],
  ['POST /_vtr/api/webhooks/*/disable', m.WebhookAnswer],
  ['GET /_vtr/api/webhooks/*/events', m.ListAnswer],
  ['GET /_vtr/api/webhook-events/*', m.WebhookEventAnswer],
  ['POST /_vtr/api/webhook-events/*/retry', m.WebhookEventAnswer],
  ['GET /_vtr/api/state', m.StateAnswer],
  ['PUT /_vtr/api/state', m.StateImportAnswer],
  ['POST /_vtr/api/state/reset', m.StateResetAnswer],
  ['GET /api/v1/session/*', SessionSchema.loose()],
  ['POST /api/v1/session/*/event', CustomEventResponse.loose()],
  ['PUT /api/v1/session/*/conversion', CustomEventResponse.loose()],
  ['POST /api/v1/event', CheckResult],
];

const MATCHERS = ROUTES.map(([route, schema]) => {
  const [method, path] = route.split(' ');
  return { route, method, re: new RegExp(`^${path.replace(/\*/g, '[^/]+')}$`), schema };
});

/** The ROUTES entry `method path` (no query) falls under, or null. */
export function routeOf(method: string, path: string): { route: string; schema: z.ZodType } | null {
  for (const r of MATCHERS) if (r.method === method && r.re.test(path)) return r;
  return null;
}

/** Every entry of ROUTES (a test checks each against a real emulator). */
export const LISTED_ROUTES: readonly string[] = ROUTES.map(([route]) => route);

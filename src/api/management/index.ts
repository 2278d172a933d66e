// The management API (`/_vtr/api`), declared once: the server mounts it from these objects, the
// OpenAPI document lists it beside the public API, and the client checks its answers with them.
import { CHECK_ROUTES } from './checks.js';
import { CLOCK_ROUTES } from './clock.js';
import { LOG_ROUTES } from './logs.js';
import { RULE_ROUTES } from './rules.js';
import { SESSION_ROUTES, SIMULATE_ROUTES } from './sessions.js';
import { SITE_ROUTES } from './sites.js';
import { STATE_ROUTES } from './state.js';
import { STREAM_ROUTES } from './stream.js';
import { VIEW_ROUTES } from './views.js';
import { WEBHOOK_EVENT_ROUTES } from './webhook-events.js';
import { WEBHOOK_ROUTES } from './webhooks.js';

export const MANAGEMENT_ROUTES = [
  ...CHECK_ROUTES, ...SIMULATE_ROUTES, ...SITE_ROUTES, ...SESSION_ROUTES, ...CLOCK_ROUTES, ...STREAM_ROUTES, ...VIEW_ROUTES,
  ...RULE_ROUTES, ...WEBHOOK_ROUTES, ...WEBHOOK_EVENT_ROUTES, ...LOG_ROUTES, ...STATE_ROUTES,
] as const;

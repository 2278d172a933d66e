// Webhooks, their events and attempts, manual retry, and the notification outbox.
import type { Hono } from 'hono';
import { z } from 'zod';
import { EVENT_STATUSES, WEBHOOK_STATUSES, type EventStatus } from '../../domain/webhooks.js';
import { VtrError } from '../../domain/errors.js';
import type { AppDeps } from '../deps.js';
import { param, queryLimit, querySite, readJsonObject, route } from '../http.js';
import { validate } from '../validate.js';

const url = z.string().min(1).max(2000);
const createBody = z.strictObject({ url });
/** The console's webhook form validates with the same schema. */
export { createBody as webhookCreateBody };
const triggerBody = z.strictObject({ session_id: z.string().min(1).max(200), saved_view_id: z.string().min(1).max(200) }).partial();
const updateBody = z.strictObject({ url, status: z.enum(WEBHOOK_STATUSES, { error: `must be one of ${WEBHOOK_STATUSES.join(', ')}` }) }).partial();

const limitOf = (text: string | undefined) => queryLimit(text, 100);

function statusOf(text: string | undefined): EventStatus | undefined {
  if (!text) return undefined;
  if (!(EVENT_STATUSES as readonly string[]).includes(text)) {
    throw new VtrError('invalid_request', `status: must be one of ${EVENT_STATUSES.join(', ')}`, { field: 'status' });
  }
  return text as EventStatus;
}

export function adminWebhookRoutes(app: Hono, deps: AppDeps): void {
  const { webhooks, sessions } = deps;
  if (!webhooks) return;
  // Webhooks are few (settings, not traffic): `limit` is honoured, no cursor.
  route(app, '/_vtr/api/webhooks', { GET: (c) => c.json(webhooks.list(c.req.query('site') || undefined).slice(0, queryLimit(c.req.query('limit'), 10_000))) });
  route(app, '/_vtr/api/sites/:id/webhooks', {
    GET: (c) => c.json(webhooks.list(param(c, 'id'))),
    POST: async (c) => c.json(webhooks.create(param(c, 'id'), validate(createBody, await readJsonObject(c)).url), 201),
  });
  route(app, '/_vtr/api/webhooks/:id', {
    GET: (c) => c.json(webhooks.get(param(c, 'id'))),
    PATCH: async (c) => c.json(webhooks.update(param(c, 'id'), validate(updateBody, await readJsonObject(c)))),
    DELETE: (c) => {
      const w = webhooks.delete(param(c, 'id'));
      return c.json({ deleted: true, webhook_id: w.webhook_id });
    },
  });
  route(app, '/_vtr/api/webhooks/:id/enable', { POST: (c) => c.json(webhooks.enable(param(c, 'id'))) });
  route(app, '/_vtr/api/webhooks/:id/disable', { POST: (c) => c.json(webhooks.disable(param(c, 'id'))) });
  // A test event now (vtr webhooks trigger): answered at once, the attempt follows (tail it).
  route(app, '/_vtr/api/webhooks/:id/trigger', {
    POST: async (c) => c.json(webhooks.trigger(param(c, 'id'), validate(triggerBody, await readJsonObject(c))), 201),
  });
  route(app, '/_vtr/api/webhooks/:id/events', {
    GET: (c) => c.json(webhooks.events(param(c, 'id'), { status: statusOf(c.req.query('status')), limit: limitOf(c.req.query('limit')), before: c.req.query('before') || undefined })),
  });
  route(app, '/_vtr/api/webhook-events/:id', { GET: (c) => c.json(webhooks.event(param(c, 'id'))) });
  // What a session's changes set off: `vtr sessions create` reports it, as the console's session page shows it.
  route(app, '/_vtr/api/sessions/:id/webhook-events', {
    GET: (c) => {
      const id = param(c, 'id');
      sessions.get(id); // a 404 for an unknown session, not an empty list
      return c.json(webhooks.sessionEvents(id, limitOf(c.req.query('limit'))));
    },
  });
  // Waits for the attempt (at most the webhook timeout) and answers the event after it.
  route(app, '/_vtr/api/webhook-events/:id/retry', { POST: async (c) => c.json(await webhooks.retry(param(c, 'id'))) });
  route(app, '/_vtr/api/notifications', {
    GET: (c) => c.json(webhooks.notifications({ siteId: querySite(c, deps), limit: limitOf(c.req.query('limit')), before: c.req.query('before') || undefined })),
  });
}

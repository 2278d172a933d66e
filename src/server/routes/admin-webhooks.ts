// Webhooks, their events and attempts, manual retry, and the notification outbox, mounted from their
// declarations (api/management/webhooks.ts, webhook-events.ts).
import type { Hono } from 'hono';
import * as w from '../../api/management/webhooks.js';
import * as e from '../../api/management/webhook-events.js';
import type { EventStatus } from '../../domain/webhooks.js';
import type { AppDeps } from '../deps.js';
import { param, queryLimit, querySite, readChange, readJsonObject, siteParam } from '../http.js';
import { mount } from '../mount.js';
import { validate } from '../validate.js';

const limitOf = (text: string | undefined) => queryLimit(text, 100);

export function adminWebhookRoutes(app: Hono, deps: AppDeps): void {
  const { webhooks, sessions } = deps;
  if (!webhooks) return;
  const id = (c: Parameters<typeof param>[0]) => param(c, 'webhook_id');
  const eventId = (c: Parameters<typeof param>[0]) => param(c, 'webhook_event_id');
  mount(app, [
    // Webhooks are few (settings, not traffic): `limit` is honoured, no cursor.
    [w.listWebhooksRoute, (c) => c.json(webhooks.list(querySite(c, deps)).slice(0, queryLimit(c.req.query('limit'), 10_000)))],
    [w.listSiteWebhooksRoute, (c) => c.json(webhooks.list(siteParam(c, deps)))],
    [w.createWebhookRoute, async (c) => c.json(webhooks.create(siteParam(c, deps), validate(w.WebhookCreate, await readJsonObject(c)).url), 201)],
    [w.getWebhookRoute, (c) => c.json(webhooks.get(id(c)))],
    [w.updateWebhookRoute, async (c) => c.json(webhooks.update(id(c), validate(w.WebhookUpdate, await readChange(c, '{"status": "disabled"}'))))],
    [w.deleteWebhookRoute, (c) => {
      const hook = webhooks.delete(id(c));
      return c.json({ deleted: true, webhook_id: hook.webhook_id });
    }],
    [w.enableWebhookRoute, (c) => c.json(webhooks.enable(id(c)))],
    [w.disableWebhookRoute, (c) => c.json(webhooks.disable(id(c)))],
    // A test event now (vtr webhooks trigger): answered at once, the attempt follows (tail it).
    [w.triggerWebhookRoute, async (c) => {
      const { session_id, saved_view_id } = validate(w.WebhookTrigger, await readJsonObject(c));
      return c.json(webhooks.trigger(id(c), { session_id: session_id ?? undefined, saved_view_id: saved_view_id ?? undefined }), 201);
    }],
    // `status` was checked against the event states by the route's query schema.
    [e.listWebhookEventsRoute, (c) => c.json(webhooks.events(id(c), {
      status: (c.req.query('status') || undefined) as EventStatus | undefined,
      limit: limitOf(c.req.query('limit')),
      before: c.req.query('before') || undefined,
    }))],
    [e.getWebhookEventRoute, (c) => c.json(webhooks.event(eventId(c)))],
    // What a session's changes set off: `vtr sessions create` reports it, as the console's session page shows it.
    [e.listSessionWebhookEventsRoute, (c) => {
      const sessionId = param(c, 'session_id');
      sessions.get(sessionId); // a 404 for an unknown session, not an empty list
      return c.json(webhooks.sessionEvents(sessionId, limitOf(c.req.query('limit'))));
    }],
    // Waits for the attempt (at most the webhook timeout) and answers the event after it.
    [e.retryWebhookEventRoute, async (c) => c.json(await webhooks.retry(eventId(c)))],
    [e.listNotificationsRoute, (c) => c.json(webhooks.notifications({ siteId: querySite(c, deps), limit: limitOf(c.req.query('limit')), before: c.req.query('before') || undefined }))],
  ]);
}

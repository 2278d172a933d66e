// Webhook events and their attempts, manual retry, and the notification outbox:
// /_vtr/api/webhooks/{webhook_id}/events, /_vtr/api/sessions/{session_id}/webhook-events,
// /_vtr/api/webhook-events/{webhook_event_id}[/retry], /_vtr/api/notifications.
import * as z from 'zod';
import { EVENT_STATUSES, NOTIFICATION_KINDS } from '../../domain/webhooks.js';
import { Timestamp } from '../common.js';
import { declareRoute, json } from '../declare.js';
import { before, failures, limit, MANAGEMENT_SECURITY as security, MANAGEMENT_TAG, pathId, siteFilter } from './common.js';

const tags = [MANAGEMENT_TAG];

export const WebhookAttempt = z
  .looseObject({
    attempt: z.number().int().meta({ description: '1 = the first' }),
    trigger: z.enum(['auto', 'manual']),
    at: Timestamp,
    status_code: z.number().int().nullable(),
    error: z.string().nullable(),
    duration_ms: z.number(),
  })
  .meta({ id: 'WebhookAttempt' });

export const WebhookEvent = z
  .looseObject({
    webhook_event_id: z.string().meta({ description: 'Also the webhook-id header of every attempt' }),
    webhook_id: z.string(),
    saved_view_id: z.string(),
    saved_view_name: z.string(),
    session_id: z.string(),
    site_id: z.string(),
    status: z.enum(EVENT_STATUSES),
    auto_retries_remaining: z.number().int(),
    next_attempt_at: Timestamp.nullable(),
    created_at: Timestamp,
    triggered_at: Timestamp,
    attempts: z.array(WebhookAttempt),
  })
  .meta({ id: 'WebhookEvent' });

export const Notification = z
  .looseObject({
    notification_id: z.string(),
    kind: z.enum(NOTIFICATION_KINDS),
    site_id: z.string(),
    webhook_id: z.string().nullable(),
    webhook_event_id: z.string().nullable(),
    to: z.string().nullable(),
    subject: z.string(),
    body: z.string(),
    created_at: Timestamp,
    sent_at: Timestamp.nullable().meta({ description: 'Handed to the SMTP server (--smtp), else null' }),
    send_error: z.string().nullable(),
  })
  .meta({ id: 'Notification' });

const status = z
  .string()
  .refine((t) => t === '' || (EVENT_STATUSES as readonly string[]).includes(t), `must be one of ${EVENT_STATUSES.join(', ')}`)
  .optional()
  .meta({ description: `Only events in this state: ${EVENT_STATUSES.join(', ')}` });
const EventParams = z.object({ webhook_event_id: pathId('webhook_event_id', 'The webhook event') });

export const listWebhookEventsRoute = declareRoute({
  method: 'get', path: '/_vtr/api/webhooks/{webhook_id}/events', operationId: 'listWebhookEvents', summary: "A webhook's events, newest first", tags, security,
  request: { params: z.object({ webhook_id: pathId('webhook_id', 'The webhook') }), query: z.object({ status, limit: limit(100), before }) },
  responses: { 200: { description: 'The events with their attempts', content: json(z.array(WebhookEvent)) }, ...failures('read', 400, 404) },
});
export const getWebhookEventRoute = declareRoute({
  method: 'get', path: '/_vtr/api/webhook-events/{webhook_event_id}', operationId: 'getWebhookEvent', summary: 'Read a webhook event', tags, security,
  request: { params: EventParams },
  responses: { 200: { description: 'The event with its attempts', content: json(WebhookEvent) }, ...failures('read', 404) },
});
export const listSessionWebhookEventsRoute = declareRoute({
  method: 'get', path: '/_vtr/api/sessions/{session_id}/webhook-events', operationId: 'listSessionWebhookEvents', summary: "What a session's changes set off", tags, security,
  request: { params: z.object({ session_id: pathId('session_id', 'The session') }), query: z.object({ limit: limit(100) }) },
  responses: { 200: { description: 'The events', content: json(z.array(WebhookEvent)) }, ...failures('read', 400, 404) },
});
export const retryWebhookEventRoute = declareRoute({
  method: 'post', path: '/_vtr/api/webhook-events/{webhook_event_id}/retry', operationId: 'retryWebhookEvent', summary: 'One attempt now, for a failed event', tags, security,
  description: 'Waits for the attempt (at most the webhook timeout) and answers the event after it.',
  request: { params: EventParams },
  responses: { 200: { description: 'The event after the attempt', content: json(WebhookEvent) }, ...failures('write', 404, 409) },
});
export const listNotificationsRoute = declareRoute({
  method: 'get', path: '/_vtr/api/notifications', operationId: 'listNotifications', summary: 'The mail outbox, newest first', tags, security,
  request: { query: z.object({ site: siteFilter, limit: limit(100), before }) },
  responses: { 200: { description: 'The notifications', content: json(z.array(Notification)) }, ...failures('read', 400, 404) },
});

/** In the order they are mounted (after the webhooks' own routes). */
export const WEBHOOK_EVENT_ROUTES = [
  listWebhookEventsRoute, getWebhookEventRoute, listSessionWebhookEventsRoute, retryWebhookEventRoute, listNotificationsRoute,
] as const;

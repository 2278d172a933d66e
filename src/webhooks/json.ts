// Store records → the management API's JSON (contract section 7 field names).
import type { Webhook, WebhookEvent } from '../domain/webhooks.js';
import { formatMicros } from '../domain/time.js';
import type { WebhookRecord } from '../store/webhooks.js';
import type { WebhookEventRecord } from '../store/webhook-events.js';
import type { Store } from '../store/index.js';

export function webhookJson(w: WebhookRecord): Webhook {
  return {
    webhook_id: w.webhook_id,
    site_id: w.site_id,
    url: w.url,
    status: w.status,
    secret: w.secret,
    consecutive_failures: w.consecutive_failures,
    created_at: w.created_at,
  };
}

export function eventJson(e: WebhookEventRecord, attempts: WebhookEvent['attempts']): WebhookEvent {
  return {
    webhook_event_id: e.webhook_event_id,
    webhook_id: e.webhook_id,
    saved_view_id: e.saved_view_id,
    saved_view_name: e.saved_view_name,
    session_id: e.session_id,
    site_id: e.site_id,
    status: e.status,
    auto_retries_remaining: e.auto_retries_remaining,
    next_attempt_at: e.next_attempt_us == null ? null : formatMicros(e.next_attempt_us),
    created_at: e.created_at,
    triggered_at: e.triggered_at,
    attempts,
  };
}

/** An event with its attempts, read from the store. */
export const loadEventJson = (store: Store, e: WebhookEventRecord): WebhookEvent => eventJson(e, store.webhookEvents.attempts(e.webhook_event_id));

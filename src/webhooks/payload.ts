// The body of a delivery: every Session field as it was when the view matched, the saved view, and
// metadata. Fixed at trigger time and stored with the event, so every attempt sends the same body
// except `attempt`.
import { newId } from '../domain/ids.js';
import type { RetryPolicy } from '../domain/retry-policy.js';
import type { Session } from '../domain/session.js';
import { formatMicros } from '../domain/time.js';
import { initialState } from '../domain/webhook-event.js';
import type { SavedView } from '../domain/webhooks.js';
import type { WebhookEventRecord } from '../store/webhook-events.js';

export const HOOK_TYPE = 'saved_view';

export interface StoredPayload extends Record<string, unknown> {
  triggered_at: string;
}

export function buildPayload(session: Session, view: SavedView, webhookId: string, eventId: string, triggeredAt: string): StoredPayload {
  return {
    ...session,
    hook_type: HOOK_TYPE,
    saved_view_id: view.saved_view_id,
    saved_view_name: view.name,
    webhook_id: webhookId,
    webhook_event_id: eventId,
    triggered_at: triggeredAt,
  };
}

/** A new outbox row: one webhook event of `view` for `session`, due now, with its payload fixed. */
export function newEventRecord(session: Session, view: SavedView, webhook: { webhook_id: string; site_id: string }, nowUs: number, policy: RetryPolicy): WebhookEventRecord {
  const id = newId.webhookEvent();
  const at = formatMicros(nowUs);
  return {
    webhook_event_id: id,
    webhook_id: webhook.webhook_id,
    saved_view_id: view.saved_view_id,
    saved_view_name: view.name,
    session_id: session.session_id,
    site_id: webhook.site_id,
    ...initialState(nowUs, policy),
    created_us: nowUs,
    created_at: at,
    triggered_at: at,
    payload: JSON.stringify(buildPayload(session, view, webhook.webhook_id, id, at)),
  };
}

/** The exact bytes of attempt `attempt` (the signature covers this string). */
export function bodyFor(storedJson: string, attempt: number): string {
  const { triggered_at, ...rest } = JSON.parse(storedJson) as StoredPayload;
  return JSON.stringify({ ...rest, attempt, triggered_at });
}

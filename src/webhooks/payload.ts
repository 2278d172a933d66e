// The body of a delivery: every Session field as it was when the view matched, the saved view, and
// metadata. Fixed at trigger time and stored with the event, so every attempt sends the same body
// except `attempt`.
import type { Session } from '../domain/session.js';
import type { SavedView } from '../domain/webhooks.js';

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

/** The exact bytes of attempt `attempt` (the signature covers this string). */
export function bodyFor(storedJson: string, attempt: number): string {
  const { triggered_at, ...rest } = JSON.parse(storedJson) as StoredPayload;
  return JSON.stringify({ ...rest, attempt, triggered_at });
}

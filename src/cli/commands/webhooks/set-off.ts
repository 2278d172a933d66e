// What a session change set off — the webhook events it created — told on stderr, as `stripe trigger`
// says what it fired. Read through the management API; where that is not reachable (a remote base
// URL, no admin token), nothing is told.
import type { ApiClient } from '../../../client/api-client.js';
import type { WebhookEvent } from '../../../domain/webhooks.js';
import type { CliContext } from '../../context.js';
import { enc } from '../../site-ref.js';

/** The session's webhook events, or null when they cannot be read. */
export async function sessionWebhookEvents(client: ApiClient, sessionId: string): Promise<WebhookEvent[] | null> {
  try {
    return await client.admin<WebhookEvent[]>('GET', `/sessions/${enc(sessionId)}/webhook-events`);
  } catch {
    return null;
  }
}

/** One line per event, oldest first. */
export function tellSetOff(ctx: CliContext, events: WebhookEvent[]): void {
  for (const e of [...events].reverse()) {
    ctx.info(`→ matched view "${e.saved_view_name}": webhook event ${e.webhook_event_id} for ${e.webhook_id} (follow it: vtr webhooks tail --webhook ${e.webhook_id})`);
  }
}

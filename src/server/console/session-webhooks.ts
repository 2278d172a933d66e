// The "Webhook events" section of a session's page. A placeholder until the webhooks console pass
// fills it (events for this session with their status and attempts, linking to the webhook pages).
import type { Session } from '../../domain/session.js';
import type { AppDeps } from '../deps.js';
import { html, type Html } from './html.js';

export function sessionWebhookEvents(_deps: AppDeps, _session: Session): Html {
  return html`<section aria-labelledby="webhook-events-h" id="session-webhook-events">
<h2 id="webhook-events-h">Webhook events</h2>
<p class="empty">Webhook events for this session will be listed here.</p>
</section>`;
}

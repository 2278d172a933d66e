// The "Webhook events" section of a session's page: the events this session caused (every webhook
// of its site), with their status and last attempt, linking to the event and webhook pages. The
// session page refreshes itself on `webhook_event.*` for this session.
import type { Session } from '../../domain/session.js';
import type { AppDeps } from '../deps.js';
import { html, type Html } from './html.js';
import { scrollTable } from './layout.js';
import { EVENT_HEAD, eventRow } from './webhook-fields.js';

export function sessionWebhookEvents(deps: AppDeps, session: Session): Html {
  const events = deps.webhooks?.sessionEvents(session.session_id) ?? [];
  return html`<section aria-labelledby="webhook-events-h" id="session-webhook-events">
<h2 id="webhook-events-h">Webhook events</h2>
${events.length
  ? scrollTable(`Webhook events of ${session.session_id}`, EVENT_HEAD.filter((h) => h !== 'Session'), events.map((e) => eventRow(e, { webhook: true, session: false })))
  : html`<p class="empty">None: this session has not matched a saved view that triggers webhooks.</p>`}
</section>`;
}

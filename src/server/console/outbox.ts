// The mail outbox: notifications the emulator "sent" (webhook event failed, webhook disabled), and
// whether they also went out over --smtp, wait for that send, or stay in the outbox only.
// Refreshes when a new one is written.
import { utcText } from '../../domain/time.js';
import type { Notification } from '../../domain/webhooks.js';
import { html, type Html } from './html.js';
import { scrollTable } from './layout.js';
import { time, value } from './fields.js';
import { eventHref, webhookHref } from './webhook-fields.js';
import type { ConsoleRouter } from './router.js';

const WAITING = 'its SMTP send has not finished: a vtr serve --smtp on this database sends it, after a restart too';

function smtpCell(n: Notification, waiting: boolean): Html {
  if (n.send_error) return html`<span class="risk-invalid">failed: ${n.send_error}</span>`;
  if (n.sent_at) return html`sent ${time(n.sent_at)}`;
  if (waiting) return html`<span title="${WAITING}">waiting to be sent</span>`;
  return html`<span class="muted">outbox only</span>`;
}

/** The mail's webhook and event, linked while the webhook (and so its events) still exists. */
function webhookCell(n: Notification, hooks: Set<string>): Html {
  if (!n.webhook_id || !hooks.has(n.webhook_id)) return html`${value(n.webhook_id)}${n.webhook_id ? html` <span class="muted">(deleted)</span>` : ''}`;
  return html`<a href="${webhookHref(n.webhook_id)}">${n.webhook_id}</a>${n.webhook_event_id ? html`<br><a class="muted" href="${eventHref(n.webhook_event_id)}">${n.webhook_event_id}</a>` : ''}`;
}

/** Mails about one view or webhook share a subject: their names add the event (or webhook) and time. */
const mailLabel = (n: Notification): string =>
  `${n.subject} (${n.webhook_event_id ?? n.webhook_id ?? n.notification_id}, ${utcText(n.created_at)})`;

function mailRow(n: Notification, waiting: boolean, hooks: Set<string>): Html {
  const smtp = smtpCell(n, waiting);
  return html`<tr id="mail-${n.notification_id}">
<td>${time(n.created_at)}</td><td>${n.kind}</td><td>${value(n.to)}</td>
<td class="wrap"><details><summary aria-label="${mailLabel(n)}">${n.subject}</summary><pre>${n.body}</pre></details></td>
<td>${smtp}</td><td class="mono">${webhookCell(n, hooks)}</td>
</tr>`;
}

export function registerOutboxPage(r: ConsoleRouter): void {
  const { deps } = r;
  r.page('/outbox', () => {
    const mails = deps.webhooks?.notifications({ limit: 200 }) ?? [];
    const waiting = deps.webhooks?.sendsWaiting(mails.map((n) => n.notification_id)) ?? new Set<string>();
    const hooks = new Set((deps.webhooks?.list() ?? []).map((w) => w.webhook_id));
    const body = html`<h1>Mail outbox</h1>
<p class="muted">Notifications to site owners. With <code>vtr serve --smtp smtp://…</code> they are also sent; one written without it stays in the outbox only.</p>
<div id="outbox">
${scrollTable('Notifications, newest first', ['Created', 'Kind', 'To', 'Subject', 'SMTP', 'Webhook'], mails.map((n) => mailRow(n, waiting.has(n.notification_id), hooks)), { bodyId: 'rows', empty: 'No mail yet. A webhook event that fails every retry writes one.' })}
</div>`;
    const script = html`vtrPage.outbox();`;
    return r.render({ title: 'Mail outbox', nav: 'outbox', body, script });
  });
}

// One webhook: its settings and buttons, and its event history (status filter), live: new events
// and each attempt's result replace their rows as they happen.
import type { Context } from 'hono';
import { EVENT_STATUSES, urlShown, type EventStatus, type Webhook } from '../../domain/webhooks.js';
import { VtrError } from '../../domain/errors.js';
import { html, raw, scriptJson, type Html } from './html.js';
import { CONSOLE, flash, goneNotice, scrollTable } from './layout.js';
import { secret, time } from './fields.js';
import { EVENT_HEAD, eventRow, hookStatus, pick, webhookHref } from './webhook-fields.js';
import { hookName, STATUS_DONE, webhookActions, webhookService } from './webhooks.js';
import type { ConsoleRouter } from './router.js';

const LIMIT = 100;

/**
 * The status filter: none ("All"), one of the statuses, or a value that is none of them (a hand-edited
 * link), which the page refuses as the API does rather than listing every event as if unfiltered.
 */
const statusOf = (c: Context): { status?: EventStatus; bad?: string } => {
  const s = c.req.query('status') ?? '';
  if (!s) return {};
  return (EVENT_STATUSES as readonly string[]).includes(s) ? { status: s as EventStatus } : { bad: s };
};

const NOT_SENT: Record<string, string> = {
  webhook_disabled: 'Not sent: the webhook is disabled, and a disabled webhook gets no new events. Enable it with the Enable button below, then send again.',
  plan_required: 'Not sent: the site is on the free plan, and webhooks deliver on paid sites only. Move it to the paid plan (vtr sites update <site> --plan paid), then send again.',
};

const sentMessage = (id: string | undefined) =>
  id && /^msg_[0-9A-Za-z]{1,64}$/.test(id) ? `Sent test event ${id}: a saved_view event for a new test session, through the outbox (signed, retried, recorded). Its attempts appear below.` : undefined;

function notSent(c: Context, siteId: string): Html | string {
  const text = pick(NOT_SENT, c.req.query('refused'));
  return text ? html`<div class="error" role="alert" id="outcome"><p>${text.replace('<site>', siteId)}</p></div>` : '';
}

/**
 * `vtr webhooks trigger` as a button; greyed out, saying why, when the trigger would be refused: a
 * disabled webhook gets no new events, and a free site's webhooks none at all (403 plan_required).
 */
function testEventForm(w: Webhook, plan: string | undefined): Html {
  const off = w.status !== 'enabled' ? 'Enable the webhook to send events.'
    : plan !== 'paid' ? `The site is on the free plan: webhooks need the paid plan (vtr sites update ${w.site_id} --plan paid).` : null;
  return html`<form method="post" action="${webhookHref(w.webhook_id)}/trigger" class="actions">
<button type="submit" class="secondary small"${off ? raw(' disabled aria-describedby="trigger-off"') : ''}>Send test event</button>
${off ? html`<span id="trigger-off" class="muted small">${off}</span>` : html`<span class="muted small">A saved_view event now, like <code>vtr webhooks trigger ${w.webhook_id}</code>.</span>`}
</form>`;
}

export function registerWebhookEventsPage(r: ConsoleRouter): void {
  const { deps } = r;

  // Refused because the webhook or its site changed since the page was drawn: back to the page,
  // which now shows the control that fixes it, rather than an error page naming a CLI command.
  r.form('/webhooks/:id/trigger', (c) => {
    const id = c.req.param('id') ?? '';
    try {
      const e = webhookService(deps).trigger(id);
      return `${webhookHref(id)}?sent=${encodeURIComponent(e.webhook_event_id)}`;
    } catch (err) {
      if (err instanceof VtrError && pick(NOT_SENT, err.code)) return `${webhookHref(id)}?refused=${err.code}`;
      throw err;
    }
  });

  r.page('/webhooks/:id', (c) => {
    const svc = webhookService(deps);
    const w = svc.get(c.req.param('id') ?? '');
    const { status, bad } = statusOf(c);
    const events = bad === undefined ? svc.events(w.webhook_id, { status, limit: LIMIT }) : [];
    const site = deps.sites.find(w.site_id);
    const body = html`<p><a href="${CONSOLE}/webhooks">← Webhooks</a></p>
<h1>Webhook <span class="mono">${w.webhook_id}</span></h1>
${goneNotice('webhook-gone', `The webhook ${hookName(w)} was deleted elsewhere, with its events: its buttons here are turned off.`)}
${flash(pick(STATUS_DONE, c.req.query('done')) ?? sentMessage(c.req.query('sent')))}
${notSent(c, w.site_id)}
<section class="card" aria-labelledby="hook-h" id="webhook-summary">
<h2 id="hook-h" class="sr-only">Settings</h2>
<dl class="fields">
<dt>url</dt><dd class="mono">${urlShown(w.url)}</dd>
<dt>status</dt><dd>${hookStatus(w.status)}</dd>
<dt>consecutive_failures</dt><dd>${w.consecutive_failures}</dd>
<dt>site</dt><dd>${site?.name ?? ''} <span class="mono muted">${w.site_id}</span>${site && site.plan !== 'paid' ? html` <span class="badge">free plan: deliveries held</span>` : ''}</dd>
<dt>secret</dt><dd>${secret(w.secret, 'webhook secret')}</dd>
<dt>created_at</dt><dd>${time(w.created_at)}</dd>
</dl>
${webhookActions(w, 'detail')}
${testEventForm(w, site?.plan)}
</section>
<h2 id="events-h">Event history</h2>
<form class="filter" method="get" action="${webhookHref(w.webhook_id)}">
<div><label for="ev-status">Status</label>
<select id="ev-status" name="status"${bad === undefined ? '' : raw(' aria-invalid="true" aria-describedby="status-error" autofocus')}><option value="">All</option>
${EVENT_STATUSES.map((s) => html`<option value="${s}"${s === status ? raw(' selected') : ''}>${s}</option>`)}</select></div>
<div><button type="submit">Show</button></div>
</form>
${bad !== undefined ? html`<div class="error" role="alert" id="status-error"><p>status: "${bad.slice(0, 100)}" is not one of ${EVENT_STATUSES.join(', ')}: pick one above, or All.</p></div>` : scrollTable(`Events of webhook ${w.webhook_id}, newest first`, EVENT_HEAD, events.map((e) => eventRow(e)), {
  bodyId: 'rows',
  empty: status ? `No ${status} events.` : 'No events yet. They come when a session first matches a saved view with trigger webhooks.',
})}
${events.length === LIMIT ? html`<p class="muted">The newest ${LIMIT} are shown; <code>vtr webhooks events ${w.webhook_id} --limit N</code> lists more.</p>` : ''}`;
    const gone = html`vtrPage.webhook(${scriptJson({ id: w.webhook_id, site: w.site_id })});`;
    const script = bad === undefined ? html`${gone} vtrPage.webhookEvents(${scriptJson({ id: w.webhook_id, status: status ?? '' })});` : gone;
    return r.render({ title: `Webhook ${w.webhook_id}`, nav: 'webhooks', body, script });
  });

  // One event row of this webhook, when it passes the page's status filter (204 otherwise).
  r.fragment('/webhooks/:id/rows/:eventId', (c) => {
    const e = webhookService(deps).event(c.req.param('eventId') ?? '');
    const { status, bad } = statusOf(c);
    if (bad !== undefined) return null;
    if (e.webhook_id !== c.req.param('id') || (status && e.status !== status)) return null;
    return eventRow(e);
  });
}

// One webhook event: its state, the Retry button (disabled, with the reason, until the automatic
// retries are done), its attempts and its payload. Live: each attempt and state change re-renders it.
// Retry posts to the same service as POST /_vtr/api/webhook-events/:id/retry, then redirects back
// (so the page's URL stays a GET the live refresh can fetch) with the outcome in the query.
import type { Context } from 'hono';
import { urlShown, type WebhookAttempt, type WebhookEvent } from '../../domain/webhooks.js';
import { VtrError } from '../../domain/errors.js';
import { html, raw, scriptJson, type Html } from './html.js';
import { scrollTable } from './layout.js';
import { statusBadge, time, value } from './fields.js';
import { attemptResult, eventHref, eventStatus, pick, retryState, sessionHref, webhookHref } from './webhook-fields.js';
import { webhookService } from './webhooks.js';
import type { ConsoleRouter } from './router.js';

const REFUSED: Record<string, string> = {
  retries_in_progress: 'Not retried: its automatic retries are not done yet (or an attempt is running right now).',
  already_delivered: 'Not retried: the event was already delivered.',
  plan_required: 'Not retried: the site is on the free plan, which does not deliver webhooks.',
  conflict: 'Not retried: the emulator is shutting down.',
};

function attemptRow(a: WebhookAttempt): Html {
  return html`<tr id="attempt-${a.attempt}">
<td>${a.attempt}</td><td>${a.trigger}</td><td>${time(a.at)}</td>
<td>${a.status_code == null ? value(null) : statusBadge(a.status_code)}</td>
<td class="wrap">${value(a.error)}</td><td>${a.duration_ms} ms</td>
</tr>`;
}

/** The result of the retry the user just made (by its attempt number), or why it was refused. */
function outcome(c: Context, e: WebhookEvent): Html {
  // A code the Retry form never sends (a hand-edited link) claims no refusal, as ?rotated= claims no rotation.
  const refused = pick(REFUSED, c.req.query('refused'));
  if (refused) return html`<div class="error" role="alert" id="outcome"><p>${refused}</p></div>`;
  const n = Number(c.req.query('retried'));
  const a = e.attempts.find((x) => x.attempt === n);
  if (!a) return html``;
  const ok = a.status_code != null && a.status_code >= 200 && a.status_code < 300;
  return ok
    ? html`<p class="flash" role="status" id="outcome">Retried: attempt ${a.attempt} was delivered (${attemptResult(a)} in ${a.duration_ms} ms).</p>`
    : html`<div class="error" role="alert" id="outcome"><p>Retried: attempt ${a.attempt} failed (${attemptResult(a)}).</p></div>`;
}

export function registerWebhookEventPage(r: ConsoleRouter): void {
  const { deps } = r;

  r.page('/webhook-events/:id', (c) => {
    const svc = webhookService(deps);
    const e = svc.event(c.req.param('id') ?? '');
    const hook = svc.get(e.webhook_id);
    const retry = retryState(deps, e);
    const body = html`<p><a href="${webhookHref(e.webhook_id)}">← Webhook ${e.webhook_id}</a></p>
<h1>Webhook event <span class="mono">${e.webhook_event_id}</span></h1>
${outcome(c, e)}
<div id="event-live">
<section class="card" aria-labelledby="ev-h">
<h2 id="ev-h">Status: ${eventStatus(e.status)}</h2>
<dl class="fields">
<dt>webhook</dt><dd><a class="mono" href="${webhookHref(e.webhook_id)}">${e.webhook_id}</a> <span class="mono muted">${urlShown(hook.url)}</span></dd>
<dt>saved_view</dt><dd>${e.saved_view_name} <span class="mono muted">${e.saved_view_id}</span></dd>
<dt>session_id</dt><dd><a class="mono" href="${sessionHref(e.session_id)}">${e.session_id}</a></dd>
<dt>created_at</dt><dd>${time(e.created_at)}</dd>
<dt>auto_retries_remaining</dt><dd>${e.auto_retries_remaining}</dd>
<dt>next_attempt_at</dt><dd>${time(e.next_attempt_at)}</dd>
</dl>
</section>
<section class="card" aria-labelledby="retry-h">
<h2 id="retry-h">Manual retry</h2>
<form method="post" action="${eventHref(e.webhook_event_id)}/retry" id="retry-form">
<button type="submit" id="retry" aria-describedby="retry-reason"${retry.allowed ? '' : raw(' disabled')}>Retry</button>
<span id="retry-reason" class="muted">${retry.reason}</span>
</form>
</section>
<section aria-labelledby="attempts-h">
<h2 id="attempts-h">Attempts (${e.attempts.length})</h2>
${scrollTable(`Attempts of ${e.webhook_event_id}`, ['Attempt', 'Trigger', 'At', 'Status code', 'Error', 'Duration'], e.attempts.map(attemptRow), {
  bodyId: 'attempts',
  empty: 'No attempt yet: the first one is due now.',
})}
</section>
</div>
<details><summary>Payload (the body of every attempt, with its <code>attempt</code> number)</summary><pre>${JSON.stringify(e.payload, null, 2)}</pre></details>`;
    const script = html`vtrPage.webhookEvent(${scriptJson(e.webhook_event_id)});`;
    return r.render({ title: `Webhook event ${e.webhook_event_id}`, nav: 'webhooks', body, script });
  });

  r.form('/webhook-events/:id/retry', async (c) => {
    const id = c.req.param('id') ?? '';
    const back = eventHref(id);
    try {
      const after = await webhookService(deps).retry(id);
      return `${back}?retried=${after.attempts.at(-1)?.attempt ?? 0}`;
    } catch (err) {
      if (err instanceof VtrError && pick(REFUSED, err.code)) return `${back}?refused=${err.code}`;
      throw err;
    }
  });
}

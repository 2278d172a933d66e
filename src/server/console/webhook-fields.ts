// Renderers shared by the webhook pages and the session page: status badges, attempt results, event
// rows, and whether (and why not) an event can be retried by hand.
import type { Webhook, WebhookAttempt, WebhookEvent } from '../../domain/webhooks.js';
import type { AppDeps } from '../deps.js';
import { html, type Html } from './html.js';
import { CONSOLE } from './layout.js';
import { statusBadge, time } from './fields.js';
import { parseMicros } from '../../domain/time.js';
import { clockMoveText, dueAtMs } from '../../domain/attempt-due.js';

/** A message picked by a query value: own keys only ("__proto__" & co. pick nothing). */
export const pick = (table: Record<string, string>, key: string | undefined): string | undefined =>
  key !== undefined && Object.hasOwn(table, key) ? table[key] : undefined;

export const eventHref = (id: string) => `${CONSOLE}/webhook-events/${encodeURIComponent(id)}`;
export const webhookHref = (id: string) => `${CONSOLE}/webhooks/${encodeURIComponent(id)}`;
export const sessionHref = (id: string) => `${CONSOLE}/sessions/${encodeURIComponent(id)}`;

export function eventStatus(status: WebhookEvent['status']): Html {
  return html`<span class="badge ev-${status}">${status}</span>`;
}

export function hookStatus(status: Webhook['status']): Html {
  return html`<span class="badge hook-${status}">${status}</span>`;
}

/** "HTTP 500", "connect ECONNREFUSED …", or both (a 3xx carries its redirect note). */
export function attemptResult(a: WebhookAttempt): Html {
  return html`${a.status_code != null ? statusBadge(a.status_code) : ''}${a.status_code != null && a.error ? ' ' : ''}${a.error ?? ''}`;
}

export const EVENT_HEAD = ['Created', 'Event', 'Status', 'Attempts', 'Last attempt', 'Next attempt', 'Saved view', 'Session'];

/**
 * One event row. The session page lists every webhook's events (`webhook`: the webhook's id under
 * the event's) and drops the Session column (`session: false`).
 */
export function eventRow(e: WebhookEvent, opts: { webhook?: boolean; session?: boolean } = {}): Html {
  const last = e.attempts.at(-1);
  return html`<tr id="ev-${e.webhook_event_id}" data-announce="Webhook event ${e.webhook_event_id}: ${e.status}">
<td>${time(e.created_at)}</td>
<td><a class="mono" href="${eventHref(e.webhook_event_id)}">${e.webhook_event_id}</a>${opts.webhook ? html`<br><a class="mono muted" href="${webhookHref(e.webhook_id)}">${e.webhook_id}</a>` : ''}</td>
<td>${eventStatus(e.status)}</td><td>${e.attempts.length}</td>
<td>${last ? attemptResult(last) : html`<span class="null">none yet</span>`}</td>
<td>${time(e.next_attempt_at)}</td><td>${e.saved_view_name}</td>
${opts.session === false ? '' : html`<td><a class="mono" href="${sessionHref(e.session_id)}">${e.session_id}</a></td>`}
</tr>`;
}

export interface RetryState {
  allowed: boolean;
  /** Why the button is disabled (or what it will do), shown next to it. */
  reason: Html;
}

/**
 * On a test clock the retries are not "done" by waiting: what moves the clock to the next one (a
 * frozen clock never gets there by itself; a manual one does, or the move runs it now).
 */
function clockMove(deps: AppDeps, next: string | null): Html | string {
  const us = next ? parseMicros(next) : null;
  if (deps.clock.mode === 'system' || us == null) return '';
  const aheadMs = dueAtMs(deps.clock.mode, us) - deps.clock.now();
  if (aheadMs <= 0) return '';
  const by = clockMoveText(aheadMs);
  return deps.clock.mode === 'frozen'
    ? html` The clock is frozen: <code>vtr clock advance ${by}</code> runs it.`
    : html` It runs then, or <code>vtr clock advance ${by}</code> runs it now.`;
}

/** The same rule as the retry service (its refusal + the plan), phrased for the button. */
export function retryState(deps: AppDeps, e: WebhookEvent): RetryState {
  if (deps.webhooks?.attemptRunning(e.webhook_event_id)) {
    return { allowed: false, reason: html`An attempt is running now: reload for its result.` };
  }
  const refusal = deps.webhooks?.retryRefusal(e.webhook_event_id) ?? null;
  if (refusal?.code === 'already_delivered') return { allowed: false, reason: html`Already delivered: nothing to retry.` };
  if (refusal?.code === 'retries_in_progress') {
    // auto_retries_remaining counts the retries still possible after the scheduled attempt.
    const left = e.auto_retries_remaining;
    const next = e.next_attempt_at ? html`next attempt at ${time(e.next_attempt_at)}` : html`next attempt any moment`;
    const then = left === 0 ? 'the last automatic one' : `then up to ${left} more if it fails`;
    return { allowed: false, reason: html`Automatic retries in progress — ${next}, ${then}. Retry by hand once they are done.${clockMove(deps, e.next_attempt_at)}` };
  }
  if (deps.sites.find(e.site_id)?.plan !== 'paid') {
    return { allowed: false, reason: html`The site is on the free plan: webhooks deliver on paid sites only.` };
  }
  return { allowed: true, reason: html`Automatic retries are done. Retry makes one attempt now (trigger <code>manual</code>), even if the webhook is disabled.` };
}

// What an attempt's result changes, in one transaction: the attempt row, the event's state, the
// webhook's failure run (and disabling), and the notifications. Returns what to announce after commit.
import type { Clock } from '../domain/clock.js';
import type { RetryPolicy } from '../domain/retry-policy.js';
import { urlShown, type Notification, type WebhookAttempt } from '../domain/webhooks.js';
import { afterAttempt, stopped } from '../domain/webhook-event.js';
import { recordDelivery, recordFailure, shouldDisable } from '../domain/disabling.js';
import { formatMicros, utcText } from '../domain/time.js';
import type { EmulatorEvent } from '../events/bus.js';
import type { Store } from '../store/index.js';
import type { WebhookRecord } from '../store/webhooks.js';
import type { WebhookEventRecord } from '../store/webhook-events.js';
import { loadEventJson, webhookJson } from './json.js';
import type { Notifier } from './notifier.js';

export interface Effects {
  events: EmulatorEvent[];
  notifications: Notification[];
}

export const noEffects = (): Effects => ({ events: [], notifications: [] });

export interface OutcomeDeps {
  store: Store;
  clock: Clock;
  policy: RetryPolicy;
  notifier: Notifier;
}

/** Stops a webhook's scheduled automatic attempts: those events become `failed`. In a transaction. */
export function stopScheduled(store: Store, webhookId: string, fx: Effects): void {
  for (const ev of store.webhookEvents.scheduledFor(webhookId)) {
    store.webhookEvents.setState({ ...ev, ...stopped(ev) });
    fx.events.push({ type: 'webhook_event.updated', data: { ...loadEventJson(store, store.webhookEvents.get(ev.webhook_event_id)!) } });
  }
}

const attemptSummary = (a: WebhookAttempt) => (a.status_code != null ? `HTTP ${a.status_code}` : '') + (a.error ? `${a.status_code != null ? ', ' : ''}${a.error}` : '');

/** Records one finished attempt. Call inside `store.tx`; null when the event was deleted meanwhile. */
export function recordAttempt(d: OutcomeDeps, eventId: string, attempt: WebhookAttempt, ok: boolean): { event: WebhookEventRecord; effects: Effects } | null {
  const { store, clock, policy, notifier } = d;
  const ev = store.webhookEvents.get(eventId);
  if (!ev) return null;
  const wh = store.webhooks.get(ev.webhook_id);
  const nowUs = clock.nowMicros();
  const a = { ...attempt, attempt: Math.max(attempt.attempt, store.webhookEvents.lastAttemptNumber(eventId) + 1) };
  store.webhookEvents.insertAttempt(eventId, a);
  const t = afterAttempt(ev, { ok, trigger: a.trigger }, nowUs, policy, wh?.status === 'enabled');
  const next: WebhookEventRecord = { ...ev, status: t.status, auto_retries_remaining: t.auto_retries_remaining, next_attempt_us: t.next_attempt_us };
  store.webhookEvents.setState(next);

  const fx = noEffects();
  fx.events.push({
    type: 'webhook_attempt.created',
    data: {
      ...a,
      webhook_event_id: ev.webhook_event_id,
      webhook_id: ev.webhook_id,
      site_id: ev.site_id,
      session_id: ev.session_id,
      saved_view_id: ev.saved_view_id,
      url: wh?.url ?? null,
      event_status: next.status,
      auto_retries_remaining: next.auto_retries_remaining,
      next_attempt_at: next.next_attempt_us == null ? null : formatMicros(next.next_attempt_us),
    },
  });
  fx.events.push({ type: 'webhook_event.updated', data: { ...loadEventJson(store, next) } });
  if (!wh) return { event: next, effects: fx };

  const site = store.sites.get(ev.site_id);
  let run = { consecutive_failures: wh.consecutive_failures, run_started_us: wh.failure_run_started_us };
  let changed = false;
  if (t.becameDelivered && run.consecutive_failures > 0) {
    run = recordDelivery();
    changed = true;
  }
  if (t.becameFailed) {
    if (site) {
      fx.notifications.push(
        notifier.write({
          kind: 'webhook_event_failed',
          site,
          webhook_id: wh.webhook_id,
          webhook_event_id: ev.webhook_event_id,
          subject: `[vtr] Webhook event failed: ${ev.saved_view_name}`,
          body: [
            `A webhook event of site "${site.name}" (${site.site_id}) could not be delivered; its automatic retries are exhausted.`,
            '',
            `Webhook:      ${wh.webhook_id} ${urlShown(wh.url)}`,
            `Event:        ${ev.webhook_event_id} (webhook-id header)`,
            `Saved view:   ${ev.saved_view_name} (${ev.saved_view_id})`,
            `Session:      ${ev.session_id}`,
            `Attempts:     ${a.attempt}; last: ${attemptSummary(a) || 'failed'}`,
            '',
            `Retry it once the endpoint works: vtr webhooks retry ${ev.webhook_event_id}`,
          ].join('\n'),
        }),
      );
    }
    run = recordFailure(run, ev.created_us);
    changed = true;
    if (wh.status === 'enabled' && shouldDisable(run, nowUs)) disable(d, wh, run, fx, site);
  }
  if (changed) {
    store.webhooks.setRun(wh.webhook_id, run.consecutive_failures, run.run_started_us);
    fx.events.push({ type: 'webhook.updated', data: { ...webhookJson(store.webhooks.get(wh.webhook_id)!) } });
  }
  return { event: next, effects: fx };
}

/** The disabling rule fired: switch the webhook off, stop its retries, notify the owner. */
function disable(d: OutcomeDeps, wh: WebhookRecord, run: { consecutive_failures: number; run_started_us: number | null }, fx: Effects, site: ReturnType<Store['sites']['get']>): void {
  d.store.webhooks.setStatus(wh.webhook_id, 'disabled');
  stopScheduled(d.store, wh.webhook_id, fx);
  if (!site) return;
  // A mail is read by a person: the time names its zone, and says when it is the emulator's clock.
  const since = run.run_started_us == null ? '?' : `${utcText(formatMicros(run.run_started_us))}${d.clock.mode === 'system' ? '' : ' (emulated)'}`;
  fx.notifications.push(
    d.notifier.write({
      kind: 'webhook_disabled',
      site,
      webhook_id: wh.webhook_id,
      webhook_event_id: null,
      subject: `[vtr] Webhook disabled: ${urlShown(wh.url)}`,
      body: [
        `The webhook ${wh.webhook_id} of site "${site.name}" (${site.site_id}) was disabled:`,
        `${run.consecutive_failures} consecutive events failed, the first of them created at ${since}.`,
        'Its pending retries were stopped; it receives no new events while disabled.',
        '',
        `URL: ${urlShown(wh.url)}`,
        '',
        `Fix the endpoint, then re-enable it: vtr webhooks enable ${wh.webhook_id}`,
        `Failed events can be retried: vtr webhooks retry --all-failed --webhook ${wh.webhook_id}`,
      ].join('\n'),
    }),
  );
}

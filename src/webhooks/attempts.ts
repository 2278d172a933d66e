// One attempt's delivery and the recording of its result, and the attempts running now. The
// claim taken before an attempt is released with its result (or when it is cut short), so an
// attempt that never records leaves its event due.
import type { Clock } from '../domain/clock.js';
import type { RetryPolicy } from '../domain/retry-policy.js';
import type { WebhookAttempt } from '../domain/webhooks.js';
import { isStorageFault } from '../domain/errors.js';
import { formatMicros } from '../domain/time.js';
import { realTimers } from '../domain/timers.js';
import type { EventBus } from '../events/bus.js';
import type { Store } from '../store/index.js';
import type { Claims } from './claims.js';
import type { Notifier } from './notifier.js';
import { recordAttempt, type Effects } from './outcome.js';
import { bodyFor } from './payload.js';
import type { Sender } from './sender.js';
import { deliveryHeaders } from './signer.js';

/** Attempts running at once, across all webhooks. */
export const MAX_IN_FLIGHT = 64;

export interface AttemptDeps {
  store: Store;
  clock: Clock;
  bus: EventBus;
  policy: RetryPolicy;
  notifier: Notifier;
  send: Sender;
  timeoutMs: number;
  log?: (line: string) => void;
}

/** `settled` runs after each attempt that ended without an unexpected error (the dispatcher's kick). */
export function createAttempts(d: AttemptDeps, claims: Claims, settled: () => void) {
  const { store, clock } = d;
  const inFlight = new Map<string, Promise<void>>();
  const cutting = new AbortController(); // cut(): attempts in flight end at once

  function publish(fx: Effects): void {
    for (const e of fx.events) d.bus.publish(e);
    for (const n of fx.notifications) d.notifier.dispatch(n);
  }

  async function attempt(eventId: string, trigger: WebhookAttempt['trigger']): Promise<void> {
    const ev = store.webhookEvents.get(eventId);
    const wh = ev && store.webhooks.get(ev.webhook_id);
    if (!ev || !wh) return;
    const n = store.webhookEvents.lastAttemptNumber(eventId) + 1;
    const body = bodyFor(ev.payload, n);
    // Signed with the real time, whatever the clock: receivers check webhook-timestamp against
    // their own clock (Standard Webhooks: ±5 min), and a moved clock must not make them refuse it.
    const headers = deliveryHeaders(wh.secret, ev.webhook_event_id, Math.floor(clock.realNow() / 1000), body);
    const at = formatMicros(clock.nowMicros());
    // Announced before the request goes out, so a slow endpoint shows as "running", not as nothing.
    d.bus.publish({
      type: 'webhook_attempt.started',
      data: { attempt: n, trigger, at, webhook_event_id: eventId, webhook_id: wh.webhook_id, site_id: ev.site_id, session_id: ev.session_id, url: wh.url },
    });
    const started = realTimers.monotonic();
    const r = await d.send(wh.url, headers, body, d.timeoutMs, cutting.signal);
    if (r.cancelled) return void store.tx(() => claims.release(eventId)); // cut: left due, as a crash leaves it
    const a: WebhookAttempt = { attempt: n, trigger, at, status_code: r.status_code, error: r.error, duration_ms: Math.round(realTimers.monotonic() - started) };
    const recorded = store.tx(() => {
      claims.release(eventId);
      return recordAttempt(d, eventId, a, r.ok);
    });
    if (recorded) publish(recorded.effects);
  }

  /** Runs one claimed attempt; it counts as running until its result is recorded. */
  function start(eventId: string, trigger: WebhookAttempt['trigger']): Promise<void> {
    let failed = false;
    const p = attempt(eventId, trigger)
      .catch((err) => {
        failed = true;
        // A full disk or read-only database: the fault log has its line; the event stays due.
        if (!isStorageFault(err)) d.log?.(`vtr: webhook event ${eventId}: ${err instanceof Error ? err.message : String(err)}`);
        try {
          store.tx(() => claims.release(eventId));
        } catch {
          // Left to lapse at its deadline.
        }
      })
      .finally(() => {
        inFlight.delete(eventId);
        // After an unexpected error the backstop timer tries again, not a hot loop.
        if (!failed) settled();
      });
    inFlight.set(eventId, p);
    return p;
  }

  return {
    start,
    running: (eventId: string) => inFlight.has(eventId),
    count: () => inFlight.size,
    /** Resolves once every attempt running now has ended. */
    settle: () => Promise.allSettled([...inFlight.values()]),
    /** Ends the running attempts at once; their events stay due. */
    cut: () => cutting.abort(),
  };
}

export type Attempts = ReturnType<typeof createAttempts>;

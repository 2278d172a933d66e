// Runs webhook attempts when they are due. One timer, armed for the earliest scheduled attempt and
// re-armed after every change; new events wake it at once (afterCommit → kick), a manual clock's
// move runs what became due (runDue). An event stays due until its attempt's result is recorded,
// so an attempt cut short by a crash runs again after restart (same webhook-id: at-least-once).
// Each attempt is claimed first (claims.ts), so several servers on one file never send it twice.
import { CLI_OPTION_NAMES, type OptionNames } from '../domain/option-names.js';
import type { Clock } from '../domain/clock.js';
import type { RetryPolicy } from '../domain/retry-policy.js';
import type { WebhookAttempt, WebhookEvent } from '../domain/webhooks.js';
import { manualRetryRefusal } from '../domain/webhook-event.js';
import { isStorageFault, notFound, shownId, VtrError } from '../domain/errors.js';
import { formatDurationExact, formatMicros, formatMillis } from '../domain/time.js';
import { nextAttemptText } from './next-attempt-text.js';
import { dueAtMs as dueAt } from '../domain/attempt-due.js';
import type { EventBus } from '../events/bus.js';
import type { Store } from '../store/index.js';
import { loadEventJson } from './json.js';
import type { Notifier } from './notifier.js';
import { recordAttempt, type Effects } from './outcome.js';
import { bodyFor } from './payload.js';
import { createClaims } from './claims.js';
import type { Sender } from './sender.js';
import { deliveryHeaders } from './signer.js';
import { realTimers } from '../domain/timers.js';

/** Attempts running at once, across all webhooks. */
const MAX_IN_FLIGHT = 64;
/** Re-check at least this often: catches a site moved back to `paid`, or another writer. */
const BACKSTOP_MS = 30_000;
/** While another process holds due events, look again this soon (it may stop without recording). */
const HELD_ELSEWHERE_MS = 1_000;
/**
 * How often to look for another process's commits (another `vtr serve` on the file): an event or
 * retry it scheduled is then on this dispatcher's timer too, and runs on time if that one stops.
 */
const OTHERS_EVERY_MS = 1_000;
/** After a pass that could not write its claims, look again this soon. */
const FAULT_RETRY_MS = 5_000;

export interface DispatcherDeps {
  store: Store;
  clock: Clock;
  bus: EventBus;
  policy: RetryPolicy;
  notifier: Notifier;
  send: Sender;
  timeoutMs: number;
  log?: (line: string) => void;
  /** How messages name what to do: the CLI's commands (default) or the library's helpers. */
  names?: Pick<OptionNames, 'followAttempts' | 'advanceClock' | 'advanceClockBy'>;
}

export function createDispatcher(d: DispatcherDeps) {
  const { store, clock } = d;
  const names = d.names ?? CLI_OPTION_NAMES;
  const inFlight = new Map<string, Promise<void>>();
  const claims = createClaims(store, store.webhookClaims, clock, d.timeoutMs);
  let timer: NodeJS.Timeout | null = null;
  let watch: NodeJS.Timeout | null = null;
  let kickQueued = false;
  let closing = false;
  // Held until start(): `vtr serve` sends nothing before it listens (a failed start delivers nothing).
  let held = false;
  const cutting = new AbortController(); // close({ cut: true }): attempts in flight end at once
  // Clock moves queue here: each starts where the previous one left the clock.
  let moving: Promise<unknown> = Promise.resolve();

  // What is due "now". A frozen clock's now is a whole millisecond: its microsecond readings only
  // order what happens within it, and that lead is not stored (an import or restart starts the
  // millisecond afresh), so whatever is scheduled within the frozen millisecond is due.
  const dueUs = () => (clock.mode === 'frozen' ? Math.max(clock.nowMicros(), clock.now() * 1000 + 999) : clock.nowMicros());
  const dueAtMs = (us: number) => dueAt(clock.mode, us);

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
    if (r.cancelled) return void store.tx(() => claims.release(eventId)); // cut by close: left due, as a crash leaves it
    const a: WebhookAttempt = { attempt: n, trigger, at, status_code: r.status_code, error: r.error, duration_ms: Math.round(realTimers.monotonic() - started) };
    const recorded = store.tx(() => {
      claims.release(eventId);
      return recordAttempt(d, eventId, a, r.ok);
    });
    if (recorded) publish(recorded.effects);
  }

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
        if (!failed) kick();
      });
    inFlight.set(eventId, p);
    return p;
  }

  function pump(): void {
    if (closing || held) return;
    const nowUs = dueUs();
    const room = MAX_IN_FLIGHT - inFlight.size; // a finishing attempt pumps again
    const candidates = room <= 0 ? [] : store.webhookEvents.due(nowUs, MAX_IN_FLIGHT * 2).map((e) => e.webhook_event_id).filter((id) => !inFlight.has(id)).slice(0, room);
    let heldElsewhere = 0;
    if (candidates.length > 0) {
      const claimed = claims.take(candidates, (id) => {
        const ev = store.webhookEvents.get(id);
        return ev?.next_attempt_us != null && ev.next_attempt_us <= nowUs;
      });
      heldElsewhere = claimed.heldElsewhere;
      for (const id of claimed.taken) start(id, 'auto');
    }
    const next = store.webhookEvents.nextDueAfter(nowUs);
    // A frozen clock does not move by itself: what is scheduled falls due only through a move
    // (advanceClock runs it), so only the backstop remains.
    const frozen = clock.mode === 'frozen';
    let delay = next == null || frozen ? BACKSTOP_MS : Math.min(BACKSTOP_MS, Math.max(0, Math.ceil((next - nowUs) / 1000)));
    if (heldElsewhere > 0) delay = Math.min(delay, HELD_ELSEWHERE_MS);
    if (timer) realTimers.clearTimeout(timer);
    timer = realTimers.setTimeout(safePump, delay);
    timer.unref();
  }

  function safePump(): void {
    try {
      pump();
    } catch (err) {
      if (!isStorageFault(err)) d.log?.(`vtr: webhook dispatcher: ${err instanceof Error ? err.message : String(err)}`);
      // Claiming failed (a full disk, a read-only database): nothing was taken or marked failed;
      // look again soon, and at once when writes work again (the emulator kicks on recovery).
      if (!closing) {
        if (timer) realTimers.clearTimeout(timer);
        timer = realTimers.setTimeout(safePump, FAULT_RETRY_MS);
        timer.unref();
      }
    }
  }

  /**
   * Runs due attempts at once (new events: no polling delay). Outside a transaction what woke it is
   * committed, so attempts start now, before the request that made them is answered: waiting for
   * the next turn of the event loop meant waiting behind every request queued in this one. Inside
   * one (a caller's transaction still open), they start once the current work yields.
   */
  function kick(): void {
    if (closing) return;
    if (!store.inTransaction()) return safePump();
    if (kickQueued) return;
    kickQueued = true;
    realTimers.setImmediate(() => {
      kickQueued = false;
      safePump();
    });
  }

  /** Takes no new attempts (the emulator is stopping); running ones go on. */
  function pause(): void {
    closing = true;
    if (timer) realTimers.clearTimeout(timer);
    if (watch) realTimers.clearInterval(watch);
  }

  /** Pumps when another process has committed since the last look (its events, its schedule). */
  function watchOthers(): void {
    if (watch) return;
    let seen = store.commitsElsewhere();
    watch = realTimers.setInterval(() => {
      if (closing || held) return;
      try {
        const v = store.commitsElsewhere();
        if (v !== seen) {
          seen = v;
          safePump();
        }
      } catch {
        // The database is closing: the backstop or the next start looks again.
      }
    }, OTHERS_EVERY_MS);
    watch.unref();
  }

  /** Runs everything due now and waits until no attempt is running. */
  async function runDue(): Promise<void> {
    for (;;) {
      safePump();
      if (inFlight.size === 0) return;
      await Promise.allSettled([...inFlight.values()]);
    }
  }

  /** One clock move (see advanceClock). */
  async function advance(ms: number): Promise<void> {
    clock.assertCanAdvance(ms);
    const target = clock.position() + ms;
    // A stop starts no attempt: the move ends before the first one it could not run, and says so.
    const cutShort = () => {
      if (!closing) return;
      const dueNow = store.webhookEvents.due(dueUs(), MAX_IN_FLIGHT * 2).length;
      const next = store.webhookEvents.nextDueAfter(dueUs());
      const ahead = next != null && dueAtMs(next) - clock.now() <= target - clock.position();
      if (dueNow > 0 || ahead) throw shuttingDown(Math.max(0, target - clock.position()), dueNow);
    };
    await runDue();
    cutShort();
    for (;;) {
      const next = store.webhookEvents.nextDueAfter(dueUs());
      if (next == null) break;
      const step = dueAtMs(next) - clock.now();
      if (clock.position() + step >= target) break;
      if (step > 0) clock.advance(step);
      await runDue();
      cutShort();
    }
    const rest = target - clock.position();
    if (rest > 0) clock.advance(rest);
    await runDue();
    cutShort();
  }

  /** A clock move that a stop cut short: where the clock stopped, what did not run, how to finish. */
  function shuttingDown(remainingMs: number, dueNow: number): VtrError {
    const now = formatMillis(clock.now());
    const unrun = dueNow > 0 ? ` ${dueNow} webhook attempt${dueNow === 1 ? '' : 's'} due then did not run; they run when it starts again.` : '';
    if (remainingMs === 0) {
      return new VtrError('shutting_down', `the emulator is shutting down: the clock moved to ${now} (UTC, emulated), but${unrun}`, { now, remaining_ms: 0 });
    }
    const left = formatDurationExact(remainingMs);
    return new VtrError(
      'shutting_down',
      `the emulator is shutting down: the clock stopped at ${now} (UTC, emulated), ${left} short of the move, before webhook attempts it could no longer run.${unrun} Start it again and run ${names.advanceClockBy(left)} to finish the move`,
      { now, remaining_ms: remainingMs },
    );
  }

  /** One manual attempt now, for a `failed` event; answers the event after it. */
  async function retry(eventId: string): Promise<WebhookEvent> {
    const ev = store.webhookEvents.get(eventId);
    if (!ev) throw notFound(`webhook event ${shownId(eventId)}`);
    // Checked first: while an attempt runs, the stored state (e.g. a due time now past) is stale.
    if (inFlight.has(eventId)) throw new VtrError('retries_in_progress', `an attempt of webhook event ${eventId} is running now; wait for its result (${names.followAttempts})`, { next_attempt_at: null });
    const refusal = manualRetryRefusal(ev);
    if (refusal?.code === 'already_delivered') throw new VtrError('already_delivered', `webhook event ${eventId} was already delivered`);
    const site = store.sites.get(ev.site_id);
    if (refusal?.code === 'retries_in_progress') {
      const nextUs = refusal.next_attempt_us;
      const aheadMs = nextUs == null ? 0 : dueAtMs(nextUs) - clock.now();
      const when = nextAttemptText({ mode: clock.mode, names, nextUs, aheadMs, freeSite: site?.plan === 'paid' ? null : ev.site_id });
      const details = { next_attempt_at: nextUs == null ? null : formatMicros(nextUs) };
      throw new VtrError('retries_in_progress', `webhook event ${eventId} is ${ev.status}: its automatic retries are not done; ${when}`, details);
    }
    if (site?.plan !== 'paid') {
      throw new VtrError('plan_required', `site ${ev.site_id} is on the free plan: webhooks deliver on paid sites only (vtr sites update ${ev.site_id} --plan paid)`);
    }
    if (closing) throw new VtrError('shutting_down', 'the emulator is shutting down; retry the event once it is running again');
    const claimed = claims.take([eventId], (id) => {
      const now = store.webhookEvents.get(id);
      return now != null && manualRetryRefusal(now) == null;
    });
    if (claimed.heldElsewhere > 0) {
      throw new VtrError('retries_in_progress', `an attempt of webhook event ${eventId} is running now in another vtr serve on this database; wait for its result`, { next_attempt_at: null });
    }
    // Another process changed it since it was read: answer from what it is now.
    if (claimed.taken.length === 0) return retry(eventId);
    await start(eventId, 'manual');
    const after = store.webhookEvents.get(eventId);
    if (!after) throw notFound(`webhook event ${shownId(eventId)}`);
    return loadEventJson(store, after);
  }

  return {
    /** Resumes every due attempt and schedules the future ones, and waiting mail (start-up). */
    start(): void {
      held = false;
      safePump();
      watchOthers();
      // Mail left waiting by a crash goes out from now too (nothing is sent before this).
      d.notifier.start();
    },
    /** No attempt until start(). */
    hold(): void {
      held = true;
    },
    kick,
    runDue,
    /**
     * Moves a manual or frozen clock forward by `ms` the way time would pass: it stops at each
     * scheduled attempt on the way, in order, and runs it there, so a retry scheduled by an attempt
     * also runs when it falls before the end (`clock advance 1h` runs a whole 2 s … 32 s retry
     * schedule). The clock's position (manual: offset, frozen: "now") grows by exactly `ms`;
     * everything that became due has run when it resolves. Moves run one at a time, in the order
     * asked: two `clock advance 1h` at once move it 2 h. A function gives `ms` when the move's turn
     * comes (`clock set`: the distance to its time from where the previous move left the clock).
     */
    advanceClock(by: number | (() => number)): Promise<void> {
      const move = moving.then(() => advance(typeof by === 'function' ? by() : by));
      moving = move.catch(() => undefined);
      return move;
    },
    retry,
    pause,
    /** Takes no new attempts and waits for the running ones (each bounded by the webhook timeout), or `cut`s them. */
    async close(opts: { cut?: boolean } = {}): Promise<void> {
      pause();
      if (opts.cut) cutting.abort();
      await Promise.allSettled([...inFlight.values()]);
      claims.close();
    },
    inFlightCount: () => inFlight.size,
    /** Whether an attempt of this event is running now. */
    running: (eventId: string) => inFlight.has(eventId),
  };
}

export type WebhookDispatcher = ReturnType<typeof createDispatcher>;

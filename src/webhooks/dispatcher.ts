// Runs webhook attempts when they are due. One timer, armed for the earliest scheduled attempt and
// re-armed after every change; new events wake it at once (afterCommit → kick), a manual clock's
// move runs what became due (runDue). An event stays due until its attempt's result is recorded,
// so an attempt cut short by a crash runs again after restart (same webhook-id: at-least-once).
// Each attempt is claimed first (claims.ts), so several servers on one file never send it twice.
// Its parts: one attempt's delivery and recording (attempts.ts), clock moves (clock-move.ts), a
// manual attempt (manual-retry.ts).
import { CLI_OPTION_NAMES, type OptionNames } from '../domain/option-names.js';
import { isStorageFault } from '../domain/errors.js';
import { realTimers } from '../domain/timers.js';
import { createAttempts, MAX_IN_FLIGHT, type AttemptDeps } from './attempts.js';
import { createClaims } from './claims.js';
import { createClockMoves, dueNowUs } from './clock-move.js';
import { createManualRetry } from './manual-retry.js';

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

export interface DispatcherDeps extends AttemptDeps {
  /** How messages name what to do: the CLI's commands (default) or the library's helpers. */
  names?: Pick<OptionNames, 'followAttempts' | 'advanceClock' | 'advanceClockBy'>;
}

export function createDispatcher(d: DispatcherDeps) {
  const { store, clock } = d;
  const names = d.names ?? CLI_OPTION_NAMES;
  const claims = createClaims(store, store.webhookClaims, clock, d.timeoutMs);
  const attempts = createAttempts(d, claims, kick);
  let timer: NodeJS.Timeout | null = null;
  let watch: NodeJS.Timeout | null = null;
  let kickQueued = false;
  let closing = false;
  // Held until start(): `vtr serve` sends nothing before it listens (a failed start delivers nothing).
  let held = false;
  const moves = createClockMoves({ store, clock, names, runDue, closing: () => closing });
  const retry = createManualRetry({ store, clock, names, claims, attempts, closing: () => closing });

  function pump(): void {
    if (closing || held) return;
    const nowUs = dueNowUs(clock);
    const room = MAX_IN_FLIGHT - attempts.count(); // a finishing attempt pumps again
    const candidates = room <= 0 ? [] : store.webhookEvents.due(nowUs, MAX_IN_FLIGHT * 2).map((e) => e.webhook_event_id).filter((id) => !attempts.running(id)).slice(0, room);
    let heldElsewhere = 0;
    if (candidates.length > 0) {
      const claimed = claims.take(candidates, (id) => {
        const ev = store.webhookEvents.get(id);
        return ev?.next_attempt_us != null && ev.next_attempt_us <= nowUs;
      });
      heldElsewhere = claimed.heldElsewhere;
      for (const id of claimed.taken) attempts.start(id, 'auto');
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
      if (attempts.count() === 0) return;
      await attempts.settle();
    }
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
      return moves.advanceClock(by);
    },
    retry,
    pause,
    /** Takes no new attempts and waits for the running ones (each bounded by the webhook timeout), or `cut`s them. */
    async close(opts: { cut?: boolean } = {}): Promise<void> {
      pause();
      if (opts.cut) attempts.cut();
      await attempts.settle();
      claims.close();
    },
    inFlightCount: attempts.count,
    /** Whether an attempt of this event is running now. */
    running: attempts.running,
  };
}

export type WebhookDispatcher = ReturnType<typeof createDispatcher>;

// Moving a manual or frozen clock the way time would pass, running each webhook attempt that falls
// due on the way, where it falls due. Moves run one at a time, in the order asked.
import type { Clock } from '../domain/clock.js';
import { dueAtMs as dueAt } from '../domain/attempt-due.js';
import { VtrError } from '../domain/errors.js';
import type { OptionNames } from '../domain/option-names.js';
import { formatDurationExact, formatMillis } from '../domain/time.js';
import type { Store } from '../store/index.js';
import { MAX_IN_FLIGHT } from './attempts.js';

/**
 * What is due "now". A frozen clock's now is a whole millisecond: its microsecond readings only
 * order what happens within it, and that lead is not stored (an import or restart starts the
 * millisecond afresh), so whatever is scheduled within the frozen millisecond is due.
 */
export const dueNowUs = (clock: Clock): number =>
  clock.mode === 'frozen' ? Math.max(clock.nowMicros(), clock.now() * 1000 + 999) : clock.nowMicros();

export interface ClockMoveDeps {
  store: Store;
  clock: Clock;
  names: Pick<OptionNames, 'advanceClockBy'>;
  /** Runs everything due now and waits until no attempt is running. */
  runDue: () => Promise<void>;
  /** Whether the emulator is stopping (no attempt starts any more). */
  closing: () => boolean;
}

/** Answers `advanceClock(by)`: see the dispatcher's. */
export function createClockMoves(d: ClockMoveDeps) {
  const { store, clock, names, runDue } = d;
  const dueUs = () => dueNowUs(clock);
  const dueAtMs = (us: number) => dueAt(clock.mode, us);
  // Clock moves queue here: each starts where the previous one left the clock.
  let moving: Promise<unknown> = Promise.resolve();

  /** One clock move. */
  async function advance(ms: number): Promise<void> {
    clock.assertCanAdvance(ms);
    const target = clock.position() + ms;
    // A stop starts no attempt: the move ends before the first one it could not run, and says so.
    const cutShort = () => {
      if (!d.closing()) return;
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

  return {
    advanceClock(by: number | (() => number)): Promise<void> {
      const move = moving.then(() => advance(typeof by === 'function' ? by() : by));
      moving = move.catch(() => undefined);
      return move;
    },
  };
}

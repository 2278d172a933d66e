// Why a manual retry waits: when the next automatic attempt is, shown as every time shown to a
// person is, and what runs it (on a frozen clock, a move of the clock that long).
import type { ClockMode } from '../domain/clock.js';
import type { OptionNames } from '../domain/option-names.js';
import { formatMicros, utcText } from '../domain/time.js';
import { clockMoveText } from '../domain/attempt-due.js';

export interface NextAttempt {
  mode: ClockMode;
  names: Pick<OptionNames, 'followAttempts' | 'advanceClockBy'>;
  /** When it is due (epoch µs); null when it is due now. */
  nextUs: number | null;
  /** How far the clock must move to run it (<= 0: it is due). */
  aheadMs: number;
  /** The site whose free plan holds the schedule, if it does. */
  freeSite: string | null;
}

export function nextAttemptText(n: NextAttempt): string {
  const shown = (us: number) => `${utcText(formatMicros(us))}${n.mode === 'system' ? '' : ' (emulated)'}`;
  // On a free site the schedule is held: neither time nor a clock move runs it.
  if (n.freeSite) {
    const at = n.nextUs == null ? 'any moment' : shown(n.nextUs);
    return `the next automatic attempt is at ${at}. It is held while site ${n.freeSite} is on the free plan (vtr sites update ${n.freeSite} --plan paid runs it)`;
  }
  if (n.nextUs == null || n.aheadMs <= 0) return `the next automatic attempt is due now and runs any moment. Follow it with ${n.names.followAttempts}`;
  const by = clockMoveText(n.aheadMs);
  const how =
    n.mode === 'system' ? `Follow it with ${n.names.followAttempts}`
      : n.mode === 'manual' ? `It runs then, or ${n.names.advanceClockBy(by)} runs it now`
        : `${n.names.advanceClockBy(by)} runs it`;
  return `the next automatic attempt is at ${shown(n.nextUs)}, ${by} from now. ${how}`;
}

// When a scheduled webhook attempt is due by the emulator's clock, and the clock move that runs it:
// one rule for the dispatcher, the CLI's answer to an early retry and the console's Retry hint.
import type { ClockMode } from './clock.js';
import { formatDurationExact } from './time.js';

/**
 * The first clock millisecond at which an attempt scheduled at `us` is due: for a frozen clock the
 * millisecond it falls in (a retry scheduled from a reading within the frozen millisecond runs at
 * its delay, not a millisecond later per retry, so a move by the whole schedule runs all of it).
 */
export const dueAtMs = (mode: ClockMode, us: number): number => (mode === 'frozen' ? Math.ceil((us - 999) / 1000) : Math.ceil(us / 1000));

/** A clock move of `aheadMs` as a duration: whole seconds read best, and rounding up still reaches the attempt. */
export const clockMoveText = (aheadMs: number): string => formatDurationExact(aheadMs < 1000 ? aheadMs : Math.ceil(aheadMs / 1000) * 1000);

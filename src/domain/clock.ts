// The one source of "now" for the emulator: every timestamp, retry schedule and the disabling rule
// read it, so tests and `--clock manual` control time (Miniflare-style timers).

import { formatMillis } from './time.js';

export type ClockMode = 'system' | 'manual';

export interface ClockState {
  now: number; // epoch ms
  mode: ClockMode;
  offset_ms: number;
}

export interface Clock {
  readonly mode: ClockMode;
  /** Epoch milliseconds. */
  now(): number;
  /** Epoch microseconds, strictly increasing across calls (unique, ordered timestamps). */
  nowMicros(): number;
  offsetMs(): number;
  /** Real epoch milliseconds, whatever the mode: for deadlines shared with other processes. */
  realNow(): number;
  /** Manual clocks only: move forward by `ms` (never back). */
  advance(ms: number): void;
  /** Manual clocks only: jump to `epochMs` (must not be in the past). */
  set(epochMs: number): void;
  /** Throws the ClockError that `advance(ms)` would throw, without moving. */
  assertCanAdvance(ms: number): void;
  /** Called after every advance/set, so due work can run. */
  onChange(listener: () => void): () => void;
}

export class ClockError extends Error {}

/** The latest "now" a manual clock may reach (9999-12-31T23:59:59.999Z): timestamps stay formattable. */
export const MAX_CLOCK_MS = 253_402_300_799_999;
const beyondMax = () => new ClockError('the clock cannot move past 9999-12-31T23:59:59.999');

export function createClock(mode: ClockMode = 'system', initialOffsetMs = 0, source: () => number = Date.now): Clock {
  // A stored offset beyond the maximum (an older vtr accepted any) is cut back to it.
  let offset = mode === 'manual' && Number.isFinite(initialOffsetMs) ? Math.min(Math.max(0, initialOffsetMs), Math.max(0, MAX_CLOCK_MS - source())) : 0;
  let lastMicros = 0;
  const listeners = new Set<() => void>();
  const now = () => source() + offset;
  const canAdvance = (ms: number) => {
    if (mode !== 'manual') throw new ClockError('the clock is in system mode; start the server with --clock manual');
    if (Number.isNaN(ms) || ms < 0) throw new ClockError('the clock only moves forward');
    if (!Number.isFinite(ms) || now() + ms > MAX_CLOCK_MS) throw beyondMax();
  };
  const changed = () => {
    for (const l of listeners) l();
  };
  return {
    mode,
    now,
    nowMicros() {
      // Sub-millisecond part from the high-resolution timer keeps microseconds meaningful.
      const frac = Math.floor((performance.now() % 1) * 1000);
      let us = Math.floor(now()) * 1000 + frac;
      if (us <= lastMicros) us = lastMicros + 1;
      lastMicros = us;
      return us;
    },
    offsetMs: () => offset,
    realNow: () => source(),
    advance(ms) {
      canAdvance(ms);
      offset += ms;
      changed();
    },
    assertCanAdvance: (ms) => canAdvance(ms),
    set(epochMs) {
      if (mode !== 'manual') throw new ClockError('the clock is in system mode; start the server with --clock manual');
      const delta = epochMs - now();
      if (Number.isNaN(delta) || delta < 0) throw new ClockError('the clock only moves forward');
      if (!Number.isFinite(delta) || epochMs > MAX_CLOCK_MS) throw beyondMax();
      offset += delta;
      changed();
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export function clockState(clock: Clock): ClockState {
  return { now: clock.now(), mode: clock.mode, offset_ms: clock.offsetMs() };
}

/** The clock as the API shows it: `now` in the Session timestamp format. */
export function clockJson(clock: Clock): { now: string; mode: ClockMode; offset_ms: number } {
  return { now: formatMillis(clock.now()), mode: clock.mode, offset_ms: clock.offsetMs() };
}

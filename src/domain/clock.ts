// The one source of "now" for the emulator: every timestamp, retry schedule and the disabling rule
// read it, so tests and `--clock manual` control time (Miniflare-style timers).

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
  /** Manual clocks only: move forward by `ms` (never back). */
  advance(ms: number): void;
  /** Manual clocks only: jump to `epochMs` (must not be in the past). */
  set(epochMs: number): void;
  /** Called after every advance/set, so due work can run. */
  onChange(listener: () => void): () => void;
}

export class ClockError extends Error {}

export function createClock(mode: ClockMode = 'system', initialOffsetMs = 0, source: () => number = Date.now): Clock {
  let offset = mode === 'manual' ? Math.max(0, initialOffsetMs) : 0;
  let lastMicros = 0;
  const listeners = new Set<() => void>();
  const now = () => source() + offset;
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
    advance(ms) {
      if (mode !== 'manual') throw new ClockError('the clock is in system mode; start the server with --clock manual');
      if (!Number.isFinite(ms) || ms < 0) throw new ClockError('the clock only moves forward');
      offset += ms;
      changed();
    },
    set(epochMs) {
      if (mode !== 'manual') throw new ClockError('the clock is in system mode; start the server with --clock manual');
      const delta = epochMs - now();
      if (!Number.isFinite(delta) || delta < 0) throw new ClockError('the clock only moves forward');
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

// The one source of "now" for the emulator: every timestamp, retry schedule and the disabling rule
// read it, so tests and `--clock manual` / `--clock frozen` control time (Miniflare-style timers).
// manual: real time plus an offset that only moves forward. frozen (a test clock): a fixed time that
// moves only when told, so nothing scheduled falls due while real time passes.

import { formatMillis, utcText } from './time.js';
import { realTimers } from './timers.js';
import { CLI_OPTION_NAMES, type OptionNames } from './option-names.js';

export type ClockMode = 'system' | 'manual' | 'frozen';
export const CLOCK_MODES: readonly ClockMode[] = ['system', 'manual', 'frozen'];

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
  /** How far "now" is from real time (manual: the offset; frozen: changes as real time passes). */
  offsetMs(): number;
  /**
   * What only advance/set move: the offset of a manual clock, "now" of a frozen one. Lets a move be
   * measured while attempts on the way take real time.
   */
  position(): number;
  /** Real epoch milliseconds, whatever the mode: for deadlines shared with other processes. */
  realNow(): number;
  /** Manual and frozen clocks only: move forward by `ms` (never back). */
  advance(ms: number): void;
  /** Manual and frozen clocks only: jump to `epochMs` (must not be in the past). */
  set(epochMs: number): void;
  /**
   * How far `epochMs` is ahead, for a move to it; throws the ClockError `set(epochMs)` would throw
   * (a time behind the clock's is named with the clock's, and the way to an earlier clock).
   */
  distanceTo(epochMs: number): number;
  /** Throws the ClockError that `advance(ms)` would throw, without moving. */
  assertCanAdvance(ms: number): void;
  /**
   * A frozen clock only: readings go on after epoch microseconds `us`, a time written before a
   * restart within the frozen millisecond's run of readings (one a minute or more past it, or
   * before it, was not: another clock mode wrote it, and "now" decides).
   */
  resumeAfter(us: number): void;
  /** Called after every advance/set, so due work can run. */
  onChange(listener: () => void): () => void;
}

export class ClockError extends Error {
  override name = 'ClockError';
}

/** The latest "now" a manual clock may reach (9999-12-31T23:59:59.999Z): timestamps stay formattable. */
export const MAX_CLOCK_MS = 253_402_300_799_999;
// Doubles are 32 µs apart at the end of time: MAX_CLOCK_MS * 1000 + 999 would round up into year 10000.
const MAX_CLOCK_MICROS = MAX_CLOCK_MS * 1000;
const beyondMax = () => new ClockError('the clock cannot move past 9999-12-31T23:59:59.999');

/**
 * `initial`: for a manual clock the kept offset (ms); for a frozen one the kept "now" (epoch ms; 0
 * or missing: the real time now). `kept`: reads the position kept in storage, which another server
 * on the same file may have moved; read at most once per turn of the event loop.
 */
export function createClock(
  mode: ClockMode = 'system',
  initial = 0,
  source: () => number = realTimers.now,
  kept?: () => number,
  /** How the one who started vtr asks for a clock that moves, empties the state, starts afresh. */
  names: Pick<OptionNames, 'movableClock' | 'setClock' | 'resetState' | 'freshClock'> = CLI_OPTION_NAMES,
): Clock {
  const { movableClock } = names;
  const movable = mode !== 'system';
  // A stored offset beyond the maximum (an older vtr accepted any) is cut back to it.
  let offset = mode === 'manual' && Number.isFinite(initial) ? Math.min(Math.max(0, initial), Math.max(0, MAX_CLOCK_MS - source())) : 0;
  let frozenAt = mode === 'frozen' ? (Number.isFinite(initial) && initial > 0 ? Math.min(initial, MAX_CLOCK_MS) : source()) : 0;
  let lastMicros = 0;
  const listeners = new Set<() => void>();
  // Another process's move is taken up without telling listeners: that process ran the due work.
  let followed = false;
  const follow = () => {
    if (!kept || followed || !movable) return;
    followed = true;
    realTimers.setImmediate(() => void (followed = false));
    const k = kept();
    if (!Number.isFinite(k)) return;
    if (mode === 'frozen' && k > frozenAt) frozenAt = Math.min(k, MAX_CLOCK_MS);
    if (mode === 'manual' && k > offset) offset = Math.min(k, Math.max(0, MAX_CLOCK_MS - source()));
  };
  // A manual clock set near the end of time stops there as real time passes: every timestamp stays
  // in the API's format (a six-digit year would not be).
  const now =
    mode === 'frozen'
      ? () => (follow(), frozenAt)
      : mode === 'manual'
        ? () => (follow(), Math.min(source() + offset, MAX_CLOCK_MS))
        : () => source();
  const refuseSystem = () => new ClockError(`the clock is in system mode and follows real time; start the emulator with ${movableClock} to move it`);
  const canAdvance = (ms: number) => {
    if (!movable) throw refuseSystem();
    if (Number.isNaN(ms) || ms < 0) throw new ClockError('the clock only moves forward');
    if (!Number.isFinite(ms) || now() + ms > MAX_CLOCK_MS) throw beyondMax();
  };
  function distanceTo(epochMs: number): number {
    if (!movable) throw refuseSystem();
    const at = now();
    const delta = epochMs - at;
    if (Number.isNaN(delta)) throw new ClockError('the clock only moves forward');
    if (delta < 0) throw behind(epochMs, at);
    if (!Number.isFinite(delta) || epochMs > MAX_CLOCK_MS) throw beyondMax();
    return delta;
  }
  // A reset keeps the clock and a restart on the same file its time: only a new database goes back,
  // and no further than the real time its clock starts at.
  const behind = (epochMs: number, at: number) => {
    const shown = (ms: number) => utcText(new Date(ms).toISOString());
    const real = source();
    const way = epochMs < real
      ? `Not even a new database goes back that far: its clock starts at the real time (${shown(real)}).`
      : `To go back, start the emulator again on a new database (${names.freshClock}): its clock starts at the real time, then ${names.setClock} it.`;
    return new ClockError(`${shown(epochMs)} is before the clock's current time, ${shown(at)} (emulated): the clock only moves forward, and ${names.resetState} keeps it. ${way}`);
  };
  const move = (ms: number) => {
    if (mode === 'frozen') {
      // Readings within a frozen millisecond are a microsecond apart; the next readings keep that
      // lead, so two readings on either side of `advance(ms)` are at least `ms` apart (a 60 s
      // advance is a 60 s duration, a 30 min one ends a session).
      if (lastMicros >= frozenAt * 1000) lastMicros += ms * 1000;
      frozenAt += ms;
    } else offset += ms;
    for (const l of listeners) l();
  };
  return {
    mode,
    now,
    nowMicros() {
      // Sub-millisecond part from the high-resolution timer keeps microseconds meaningful; a frozen
      // clock still hands out unique, ordered microseconds (one apart) within its millisecond.
      const frac = mode === 'frozen' ? 0 : Math.floor((realTimers.monotonic() % 1) * 1000);
      let us = Math.floor(now()) * 1000 + frac;
      if (us <= lastMicros) us = lastMicros + 1;
      lastMicros = us;
      return Math.min(us, MAX_CLOCK_MICROS);
    },
    offsetMs: () => (follow(), mode === 'frozen' ? frozenAt - source() : offset),
    position: () => (follow(), mode === 'frozen' ? frozenAt : offset),
    realNow: () => source(),
    advance(ms) {
      canAdvance(ms);
      move(ms);
    },
    assertCanAdvance: (ms) => canAdvance(ms),
    set(epochMs) {
      move(distanceTo(epochMs));
    },
    distanceTo,
    resumeAfter(us) {
      const from = frozenAt * 1000;
      if (mode !== 'frozen' || !(us >= from && us < from + 60_000_000) || us <= lastMicros) return;
      lastMicros = Math.min(us, MAX_CLOCK_MICROS);
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

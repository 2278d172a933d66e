// When the checkpoint worker tells the server's connection to copy the WAL's tail (see
// checkpointer.ts). Pure, so the rule is tested without threads or timing.

export interface CatchUpLimits {
  /** A WAL at least this long (in frames) is caught up. */
  restartPages: number;
  /** What the server's connection may be left to copy. */
  tailPages: number;
  /** Passes after the first before giving up until the next round. */
  maxPasses: number;
  /**
   * A WAL at least this long is handed over after those passes whatever its tail: writes that
   * outrun every pass (the worker short of CPU) would otherwise take it to the server's own
   * checkpoint limit, which copies all of it in one stall; the tail is what one pass let through.
   */
  forcePages: number;
}

/**
 * Runs `pass` (one PASSIVE checkpoint, returning the WAL's length in frames when it began) until
 * what arrived during the last pass is a tail; returns the WAL's length then, or null when the WAL
 * is short, unchanged since `lastCaughtUp` (idle: it starts over at the next write), or writes kept
 * coming too fast while it is shorter than `forcePages`.
 */
export function catchUp(pass: () => number, limits: CatchUpLimits, lastCaughtUp: number | null): number | null {
  let log = pass();
  if (log < limits.restartPages || log === lastCaughtUp) return null;
  // Each pass copies what arrived during the last, so they shrink fast.
  for (let i = 0; i < limits.maxPasses; i++) {
    const next = pass();
    const arrived = next - log;
    log = next;
    if (arrived >= 0 && arrived <= limits.tailPages) return log;
  }
  return log >= limits.forcePages ? log : null;
}

// When a webhook is switched off (contract section 6): 10 or more consecutive failed events whose
// run began (the first failed event of the run was created) 3 or more days before the latest failure.
// Any delivered event ends the run; re-enabling resets it.

export const DISABLE_AFTER_FAILURES = 10;
export const DISABLE_AFTER_US = 3 * 86_400 * 1_000_000;

export interface FailureRun {
  consecutive_failures: number;
  /** created time (epoch µs) of the earliest event in the run; null when there is no run. */
  run_started_us: number | null;
}

export const NO_RUN: FailureRun = { consecutive_failures: 0, run_started_us: null };

/** One more event of the webhook became `failed`. */
export function recordFailure(run: FailureRun, eventCreatedUs: number): FailureRun {
  // Events fail in completion order, not creation order: the run starts at its oldest event.
  const started = run.run_started_us == null ? eventCreatedUs : Math.min(run.run_started_us, eventCreatedUs);
  return { consecutive_failures: run.consecutive_failures + 1, run_started_us: started };
}

/** An event of the webhook was delivered: the run is over. */
export const recordDelivery = (): FailureRun => NO_RUN;

export function shouldDisable(run: FailureRun, latestFailureUs: number): boolean {
  return (
    run.consecutive_failures >= DISABLE_AFTER_FAILURES &&
    run.run_started_us != null &&
    latestFailureUs - run.run_started_us >= DISABLE_AFTER_US
  );
}

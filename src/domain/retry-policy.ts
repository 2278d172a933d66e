// How long a failed webhook event waits before each automatic retry (contract section 6): after a
// failed first attempt up to five retries, 2s, 4s, 8s, 16s, 32s by default. `--retry-base` doubles
// from another base, `--retry-schedule` gives all five, `--retry-jitter` spreads them by ±20%.

export const AUTO_RETRIES = 5;
export const DEFAULT_RETRY_BASE_MS = 2000;
/** With jitter a delay lands anywhere in [d·(1−f), d·(1+f)]. */
export const JITTER_FRACTION = 0.2;
/** The longest a receiver may be given to answer: one day (a longer timer would fire at once). */
export const MAX_WEBHOOK_TIMEOUT_MS = 86_400_000;

export interface RetryPolicyOptions {
  baseMs?: number;
  /** All five delays (ms); wins over baseMs. */
  schedule?: readonly number[] | null;
  jitter?: boolean;
  /** [0, 1) source for jitter; injected by tests. */
  random?: () => number;
}

export interface RetryPolicy {
  readonly retries: number;
  /** The five delays before jitter, ms. */
  readonly delays: readonly number[];
  /** Delay before automatic retry `n` (1 = the first retry), jitter applied. */
  delayMs(n: number): number;
}

export function retryDelays(opts: Pick<RetryPolicyOptions, 'baseMs' | 'schedule'> = {}): number[] {
  if (opts.schedule && opts.schedule.length > 0) {
    if (opts.schedule.length !== AUTO_RETRIES) throw new RangeError(`a retry schedule has exactly ${AUTO_RETRIES} delays`);
    return opts.schedule.map((d) => Math.max(0, d));
  }
  const base = Math.max(0, opts.baseMs ?? DEFAULT_RETRY_BASE_MS);
  return Array.from({ length: AUTO_RETRIES }, (_, i) => base * 2 ** i);
}

export function createRetryPolicy(opts: RetryPolicyOptions = {}): RetryPolicy {
  const delays = retryDelays(opts);
  const random = opts.random ?? Math.random;
  return {
    retries: AUTO_RETRIES,
    delays,
    delayMs(n) {
      const d = delays[Math.min(Math.max(n, 1), delays.length) - 1];
      if (!opts.jitter) return d;
      return Math.max(0, Math.round(d * (1 + (random() * 2 - 1) * JITTER_FRACTION)));
    },
  };
}

/** Which retry comes next for an event with `remaining` automatic retries left (1-based). */
export const retryNumber = (remaining: number): number => AUTO_RETRIES - remaining + 1;

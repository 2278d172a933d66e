// The life of a webhook event (contract section 6), pure: pending → delivered | retrying → … →
// delivered | failed. The dispatcher records an attempt and asks here what the event becomes.
import type { EventStatus } from './webhooks.js';
import { MAX_CLOCK_MS } from './clock.js';
import { retryNumber, type RetryPolicy } from './retry-policy.js';

export interface EventState {
  status: EventStatus;
  auto_retries_remaining: number;
  /** When the next automatic attempt is due (epoch µs); null when none will run. */
  next_attempt_us: number | null;
}

export interface AttemptOutcome {
  ok: boolean;
  trigger: 'auto' | 'manual';
}

export interface Transition extends EventState {
  /** The event just became `failed` (automatic retries exhausted): notify, count toward disabling. */
  becameFailed: boolean;
  /** The event just became `delivered`: ends the webhook's failure run. */
  becameDelivered: boolean;
}

/** A new event: its first attempt is due now. */
export function initialState(nowUs: number, policy: Pick<RetryPolicy, 'retries'>): EventState {
  return { status: 'pending', auto_retries_remaining: policy.retries, next_attempt_us: nowUs };
}

/**
 * What an attempt's result makes of the event. `canRetry` is false when the webhook was disabled
 * while the attempt ran: a failure then ends the event instead of scheduling another retry.
 */
export function afterAttempt(state: EventState, outcome: AttemptOutcome, nowUs: number, policy: RetryPolicy, canRetry = true): Transition {
  const keep = { ...state, becameFailed: false, becameDelivered: false };
  if (outcome.ok) {
    if (state.status === 'delivered') return { ...keep, next_attempt_us: null }; // never due again
    return { ...state, status: 'delivered', next_attempt_us: null, becameFailed: false, becameDelivered: true };
  }
  // A failed manual retry, or an automatic attempt whose event was stopped meanwhile, changes nothing.
  if (outcome.trigger === 'manual' || state.status === 'failed' || state.status === 'delivered') return { ...keep, next_attempt_us: null };
  if (!canRetry || state.auto_retries_remaining <= 0) {
    return { status: 'failed', auto_retries_remaining: 0, next_attempt_us: null, becameFailed: true, becameDelivered: false };
  }
  const delayUs = policy.delayMs(retryNumber(state.auto_retries_remaining)) * 1000;
  return {
    status: 'retrying',
    auto_retries_remaining: state.auto_retries_remaining - 1,
    // A delay past year 9999 (a huge --retry-schedule) would be a time no record can hold: the
    // attempt's result could not be written and the event would stay due, resent without end.
    next_attempt_us: Math.min(nowUs + delayUs, MAX_CLOCK_MS * 1000),
    becameFailed: false,
    becameDelivered: false,
  };
}

/** Disabling the webhook stops pending retries: the event is failed, with nothing left to run. */
export function stopped(state: EventState): EventState {
  if (state.status === 'delivered' || state.status === 'failed') return state;
  return { status: 'failed', auto_retries_remaining: 0, next_attempt_us: null };
}

export type RetryRefusal =
  | { code: 'already_delivered' }
  | { code: 'retries_in_progress'; next_attempt_us: number | null };

/** A manual retry is allowed only for a `failed` event (its automatic retries are over). */
export function manualRetryRefusal(state: EventState): RetryRefusal | null {
  if (state.status === 'delivered') return { code: 'already_delivered' };
  if (state.status === 'pending' || state.status === 'retrying') return { code: 'retries_in_progress', next_attempt_us: state.next_attempt_us };
  return null;
}

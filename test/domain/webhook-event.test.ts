import { describe, expect, it } from 'vitest';
import { createClock, MAX_CLOCK_MS } from '../../src/domain/clock.js';
import { formatMicros } from '../../src/domain/time.js';
import { createRetryPolicy } from '../../src/domain/retry-policy.js';
import { afterAttempt, initialState, manualRetryRefusal, stopped, type EventState } from '../../src/domain/webhook-event.js';

// An injected clock: time only moves when the test says so.
function fakeClock() {
  let t = Date.UTC(2026, 10, 21, 9, 0, 0);
  const clock = createClock('manual', 0, () => t);
  return { clock, nowUs: () => clock.now() * 1000, tick: (ms: number) => void (t += ms) };
}

const policy = createRetryPolicy();
const fail = { ok: false, trigger: 'auto' } as const;
const ok = { ok: true, trigger: 'auto' } as const;

describe('webhook event state machine', () => {
  it('event: a new event is pending with its first attempt due now', () => {
    const { nowUs } = fakeClock();
    expect(initialState(nowUs(), policy)).toEqual({ status: 'pending', auto_retries_remaining: 5, next_attempt_us: nowUs() });
  });

  it('event: a retry delay past the end of time is due at the last moment the clock can show, not at a time that cannot be written', () => {
    const { nowUs } = fakeClock();
    const far = createRetryPolicy({ schedule: [1000, 1000, 1000, 1000, 99_999_999 * 86_400_000] });
    let state: EventState = initialState(nowUs(), far);
    for (let i = 0; i < 5; i++) state = afterAttempt(state, fail, nowUs(), far);
    expect(state).toMatchObject({ status: 'retrying', auto_retries_remaining: 0, next_attempt_us: MAX_CLOCK_MS * 1000 });
    expect(formatMicros(state.next_attempt_us!)).toMatch(/^9999-12-31T23:59:59/);
  });

  it('event: pending → delivered on a 2xx', () => {
    const { nowUs } = fakeClock();
    const t = afterAttempt(initialState(nowUs(), policy), ok, nowUs(), policy);
    expect(t).toMatchObject({ status: 'delivered', next_attempt_us: null, becameDelivered: true, becameFailed: false });
  });

  it('event: failures walk retrying with 2s, 4s, 8s, 16s, 32s, then failed', () => {
    const { nowUs, tick } = fakeClock();
    let s: EventState = initialState(nowUs(), policy);
    const waits: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = afterAttempt(s, fail, nowUs(), policy);
      expect(t.status).toBe('retrying');
      expect(t.becameFailed).toBe(false);
      waits.push((t.next_attempt_us! - nowUs()) / 1000);
      tick(waits[i]);
      s = t;
    }
    expect(waits).toEqual([2000, 4000, 8000, 16000, 32000]);
    expect(s.auto_retries_remaining).toBe(0);
    const last = afterAttempt(s, fail, nowUs(), policy);
    expect(last).toMatchObject({ status: 'failed', next_attempt_us: null, auto_retries_remaining: 0, becameFailed: true });
  });

  it('event: a delivered event is never due again, even if an attempt of it succeeds once more', () => {
    const delivered: EventState = { status: 'delivered', auto_retries_remaining: 5, next_attempt_us: 1 };
    expect(afterAttempt(delivered, { ok: true, trigger: 'auto' }, 10, policy)).toMatchObject({ status: 'delivered', next_attempt_us: null, becameDelivered: false });
  });

  it('event: retrying → delivered when a retry succeeds', () => {
    const { nowUs } = fakeClock();
    const s = afterAttempt(initialState(nowUs(), policy), fail, nowUs(), policy);
    expect(afterAttempt(s, ok, nowUs(), policy)).toMatchObject({ status: 'delivered', auto_retries_remaining: 4, becameDelivered: true });
  });

  it('event: a failure while the webhook is disabled ends the event', () => {
    const { nowUs } = fakeClock();
    const t = afterAttempt(initialState(nowUs(), policy), fail, nowUs(), policy, false);
    expect(t).toMatchObject({ status: 'failed', auto_retries_remaining: 0, becameFailed: true });
  });

  it('event: a failed manual retry leaves a failed event failed, and is not a new failure', () => {
    const failed: EventState = { status: 'failed', auto_retries_remaining: 0, next_attempt_us: null };
    const { nowUs } = fakeClock();
    expect(afterAttempt(failed, { ok: false, trigger: 'manual' }, nowUs(), policy)).toMatchObject({ status: 'failed', becameFailed: false });
    expect(afterAttempt(failed, { ok: true, trigger: 'manual' }, nowUs(), policy)).toMatchObject({ status: 'delivered', becameDelivered: true });
  });

  it('event: an attempt finishing after the event was stopped does not revive it', () => {
    const { nowUs } = fakeClock();
    const s = stopped(initialState(nowUs(), policy));
    expect(s).toEqual({ status: 'failed', auto_retries_remaining: 0, next_attempt_us: null });
    expect(afterAttempt(s, fail, nowUs(), policy)).toMatchObject({ status: 'failed', becameFailed: false });
  });

  it('event: manual retry only for failed events', () => {
    const { nowUs } = fakeClock();
    const pending = initialState(nowUs(), policy);
    expect(manualRetryRefusal(pending)).toEqual({ code: 'retries_in_progress', next_attempt_us: pending.next_attempt_us });
    expect(manualRetryRefusal({ ...pending, status: 'retrying' })?.code).toBe('retries_in_progress');
    expect(manualRetryRefusal({ ...pending, status: 'delivered' })).toEqual({ code: 'already_delivered' });
    expect(manualRetryRefusal({ status: 'failed', auto_retries_remaining: 0, next_attempt_us: null })).toBeNull();
  });
});

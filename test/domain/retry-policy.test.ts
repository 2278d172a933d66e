import { describe, expect, it } from 'vitest';
import { AUTO_RETRIES, createRetryPolicy, retryDelays, retryNumber } from '../../src/domain/retry-policy.js';

describe('retry policy', () => {
  it('retry policy: default delays are 2s, 4s, 8s, 16s, 32s', () => {
    expect(retryDelays()).toEqual([2000, 4000, 8000, 16000, 32000]);
    expect(AUTO_RETRIES).toBe(5);
  });

  it('retry policy: --retry-base doubles from the given base', () => {
    expect(retryDelays({ baseMs: 100 })).toEqual([100, 200, 400, 800, 1600]);
  });

  it('retry policy: --retry-schedule gives all five and wins over the base', () => {
    const schedule = [5000, 300_000, 1_800_000, 7_200_000, 18_000_000];
    const p = createRetryPolicy({ baseMs: 100, schedule });
    expect(p.delays).toEqual(schedule);
    expect([1, 2, 3, 4, 5].map((n) => p.delayMs(n))).toEqual(schedule);
  });

  it('retry policy: a schedule of the wrong length is refused', () => {
    expect(() => retryDelays({ schedule: [1, 2, 3] })).toThrow(/exactly 5/);
  });

  it('retry policy: no jitter unless asked', () => {
    const p = createRetryPolicy({ random: () => 0.99 });
    expect(p.delayMs(1)).toBe(2000);
  });

  it('retry policy: jitter stays within ±20% and uses the injected randomness', () => {
    expect(createRetryPolicy({ jitter: true, random: () => 0 }).delayMs(1)).toBe(1600);
    expect(createRetryPolicy({ jitter: true, random: () => 0.5 }).delayMs(1)).toBe(2000);
    expect(createRetryPolicy({ jitter: true, random: () => 0.999999 }).delayMs(5)).toBe(38400);
    const p = createRetryPolicy({ jitter: true });
    for (let i = 0; i < 200; i++) {
      const d = p.delayMs(3);
      expect(d).toBeGreaterThanOrEqual(6400);
      expect(d).toBeLessThanOrEqual(9600);
    }
  });

  it('retry policy: the retry number follows from the retries remaining', () => {
    expect(retryNumber(5)).toBe(1);
    expect(retryNumber(1)).toBe(5);
  });
});

import { describe, expect, it } from 'vitest';
import { DISABLE_AFTER_US, NO_RUN, recordDelivery, recordFailure, shouldDisable, type FailureRun } from '../../src/domain/disabling.js';

const DAY = 86_400_000_000;
const t0 = 1_800_000_000_000_000;

function failures(createdUs: number[]): FailureRun {
  return createdUs.reduce((run, c) => recordFailure(run, c), NO_RUN);
}

describe('disabling rule', () => {
  it('disabling: 10 failures over 3 days disable', () => {
    const created = [t0, ...Array.from({ length: 9 }, (_, i) => t0 + 3 * DAY + i)];
    const run = failures(created);
    expect(run.consecutive_failures).toBe(10);
    expect(shouldDisable(run, t0 + 3 * DAY + 10)).toBe(true);
  });

  it('disabling: 9 failures over a week do not disable', () => {
    const run = failures(Array.from({ length: 9 }, (_, i) => t0 + i * DAY));
    expect(shouldDisable(run, t0 + 8 * DAY)).toBe(false);
  });

  it('disabling: 50 failures within less than 3 days do not disable', () => {
    const run = failures(Array.from({ length: 50 }, (_, i) => t0 + i));
    expect(shouldDisable(run, t0 + DISABLE_AFTER_US - 1)).toBe(false);
    expect(shouldDisable(run, t0 + DISABLE_AFTER_US)).toBe(true);
  });

  it('disabling: the run starts at its oldest event, whatever order they failed in', () => {
    const run = failures([t0 + DAY, t0, t0 + 2 * DAY]);
    expect(run.run_started_us).toBe(t0);
  });

  it('disabling: a delivered event ends the run', () => {
    const run = failures(Array.from({ length: 12 }, (_, i) => t0 + i * DAY));
    expect(recordDelivery()).toEqual(NO_RUN);
    const after = recordFailure(recordDelivery(), t0 + 20 * DAY);
    expect(after).toEqual({ consecutive_failures: 1, run_started_us: t0 + 20 * DAY });
    expect(shouldDisable(after, t0 + 30 * DAY)).toBe(false);
    expect(shouldDisable(run, t0 + 12 * DAY)).toBe(true);
  });
});

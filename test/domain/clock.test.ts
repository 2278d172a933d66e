import { describe, expect, it, vi } from 'vitest';
import { ClockError, createClock, MAX_CLOCK_MS } from '../../src/domain/clock.js';
import { formatMicros } from '../../src/domain/time.js';

describe('clock', () => {
  it('frozen clock: now stands still while real time passes, and moves only when told', () => {
    let real = 1_800_000_000_000;
    const clock = createClock('frozen', 0, () => real);
    expect(clock.now()).toBe(real);
    real += 60_000;
    expect(clock.now()).toBe(1_800_000_000_000);
    clock.advance(3_600_000);
    expect(clock.now()).toBe(1_800_003_600_000);
    expect(clock.position()).toBe(1_800_003_600_000);
    clock.set(1_800_010_000_000);
    expect(clock.now()).toBe(1_800_010_000_000);
    expect(() => clock.set(1_800_000_000_000)).toThrow(ClockError);
    expect(clock.realNow()).toBe(real);
  });

  it('frozen clock: starts from the kept time; its microseconds stay unique and ordered', () => {
    const clock = createClock('frozen', 1_700_000_000_000, () => 1_800_000_000_000);
    expect(clock.now()).toBe(1_700_000_000_000);
    const a = clock.nowMicros();
    const b = clock.nowMicros();
    expect(b).toBeGreaterThan(a);
    expect(Math.floor(a / 1000)).toBe(1_700_000_000_000);
  });

  it('frozen clock advance: readings on either side are at least the advance apart', () => {
    const clock = createClock('frozen', 1_700_000_000_000, () => 1_800_000_000_000);
    for (let i = 0; i < 5; i++) clock.nowMicros();
    const before = clock.nowMicros();
    clock.advance(60_000);
    expect(clock.nowMicros() - before).toBeGreaterThanOrEqual(60_000_000);
    const next = clock.nowMicros();
    clock.set(1_700_000_120_000);
    expect(clock.nowMicros() - next).toBeGreaterThanOrEqual(60_000_000);
  });

  it('frozen clock advance: with no reading since the last move, the next is the exact time', () => {
    const clock = createClock('frozen', 1_700_000_000_000, () => 1_800_000_000_000);
    clock.advance(1_000);
    expect(clock.nowMicros()).toBe(1_700_000_001_000_000);
  });

  it('manual clock set to the last moment: it stays there as real time passes, inside the timestamp format', () => {
    let real = 1_800_000_000_000;
    const clock = createClock('manual', 0, () => real);
    clock.set(MAX_CLOCK_MS);
    real += 5_000;
    expect(clock.now()).toBe(MAX_CLOCK_MS);
    expect(Math.floor(clock.nowMicros() / 1000)).toBe(MAX_CLOCK_MS);
  });

  it('manual clock at the last moment: microseconds stay in year 9999 whatever the high-resolution timer says', () => {
    const clock = createClock('manual', 0, () => 1_800_000_000_000);
    clock.set(MAX_CLOCK_MS);
    const hr = vi.spyOn(performance, 'now').mockReturnValue(1234.999);
    try {
      expect(formatMicros(clock.nowMicros())).toMatch(/^9999-12-31T23:59:59\.999\d{3}$/);
    } finally {
      hr.mockRestore();
    }
  });

  it('system clock: refuses to move, naming the clocks that do', () => {
    expect(() => createClock('system').advance(1000)).toThrow(/--clock frozen/);
  });

  it('frozen clock resumeAfter: readings go on after a time written in the frozen millisecond\'s run, never after one another clock mode wrote', () => {
    const t = 1_800_000_000_000;
    const clock = createClock('frozen', t, () => t + 5000);
    clock.resumeAfter(t * 1000 + 471);
    expect(clock.nowMicros()).toBe(t * 1000 + 472);
    clock.resumeAfter(t * 1000 + 3600_000_000); // an hour ahead: written by a manual clock
    clock.resumeAfter(t * 1000 - 5); // before the frozen time
    expect(clock.nowMicros()).toBe(t * 1000 + 473);
    const manual = createClock('manual', 0, () => t);
    manual.resumeAfter(t * 1000 + 5_000_000);
    expect(Math.floor(manual.nowMicros() / 1000)).toBe(t); // real time plus its offset decides
  });

  it('frozen clock set before the real time: the refusal never says the clock cannot read earlier than the real time while it does', () => {
    const real = Date.parse('2026-11-28T12:00:00Z');
    // A frozen clock kept in the database from the day before stands earlier than the real time.
    const clock = createClock('frozen', real - 86_400_000, () => real);
    let message = '';
    try {
      clock.set(real - 2 * 86_400_000);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/^2026-11-26 12:00:00 UTC is before the clock's current time, 2026-11-27 12:00:00 UTC \(emulated\)/);
    expect(message).not.toMatch(/never reads earlier/);
    expect(message).toMatch(/Not even a new database goes back that far: its clock starts at the real time \(2026-11-28 12:00:00 UTC\)\.$/);
  });
});

import { describe, expect, it } from 'vitest';
import { formatDurationExact, formatMicros, parseDuration, parseTimestamp } from '../../src/domain/time.js';

describe('time', () => {
  it('formatMicros: UTC, microseconds, no zone suffix', () => {
    expect(formatMicros(0)).toBe('1970-01-01T00:00:00.000000');
    expect(formatMicros(1_795_253_643_123_456)).toBe('2026-11-21T09:34:03.123456');
    expect(formatMicros(1_795_253_643_000_001)).toBe('2026-11-21T09:34:03.000001');
    expect(formatMicros(1_795_253_643_999_999)).toBe('2026-11-21T09:34:03.999999');
    expect(formatMicros(1_795_253_644_000_000)).toBe('2026-11-21T09:34:04.000000');
    expect(formatMicros(-1)).toBe('1969-12-31T23:59:59.999999');
  });

  it('formatMicros: agrees with Date for many times, in and out of order (the per-second cache)', () => {
    let x = 12345;
    for (let i = 0; i < 5000; i++) {
      x = (x * 1103515245 + 12345) % 2 ** 31;
      const us = 1_700_000_000_000_000 + (x % 5000) * 1_000_000 + (x % 1_000_000);
      const expected = `${new Date(Math.floor(us / 1000)).toISOString().slice(0, 23)}${String(us % 1000).padStart(3, '0')}`;
      expect(formatMicros(us)).toBe(expected);
    }
  });

  it('parseTimestamp: reads what formatMicros writes (to the millisecond)', () => {
    expect(parseTimestamp(formatMicros(1_795_253_643_123_456))).toBe(1_795_253_643_123);
  });
  it('parseTimestamp: a day the month does not have is not a time (never rolled over into the next month)', () => {
    expect(parseTimestamp('2039-02-30T00:00:00Z')).toBeNull();
    expect(parseTimestamp('2039-04-31')).toBeNull();
    expect(parseTimestamp('2039-06-31 10:00')).toBeNull();
    expect(parseTimestamp('2040-02-29T00:00:00+02:00')).toBe(Date.parse('2040-02-28T22:00:00Z'));
    expect(parseTimestamp('2039-12-31T23:59:59.5')).toBe(Date.parse('2039-12-31T23:59:59.500Z'));
  });
  it('parseTimestamp: reads a time as vtr shows it to a person, zone named UTC', () => {
    expect(parseTimestamp('2030-01-05 00:00:00 UTC')).toBe(Date.parse('2030-01-05T00:00:00Z'));
    expect(parseTimestamp('2030-01-05 09:30 utc')).toBe(Date.parse('2030-01-05T09:30:00Z'));
    expect(parseTimestamp('2030-01-05T09:30:00UTC')).toBe(Date.parse('2030-01-05T09:30:00Z'));
    expect(parseTimestamp('2030-01-05T09:30:00z')).toBe(Date.parse('2030-01-05T09:30:00Z'));
    expect(parseTimestamp('2030-01-05 09:30:00 UTC (emulated)')).toBe(Date.parse('2030-01-05T09:30:00Z'));
    expect(parseTimestamp('2030-01-05 09:30:00 UTC+02:00')).toBeNull();
    expect(parseTimestamp('2030-01-05 09:30:00 (emulated)')).toBeNull();
  });
  it('formatDurationExact: parseDuration reads it back to the millisecond', () => {
    expect(formatDurationExact(3_597_999)).toBe('59m57.999s');
    expect(formatDurationExact(0)).toBe('0s');
    expect(formatDurationExact(86_400_000 + 5)).toBe('1d0.005s');
    for (const ms of [0, 1, 999, 1000, 59_999, 3_600_000, 3_597_999, 90_061_001, 7 * 86_400_000 + 123]) {
      expect(parseDuration(formatDurationExact(ms))).toBe(ms);
    }
  });
});

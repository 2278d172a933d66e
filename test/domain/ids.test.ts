import { describe, expect, it } from 'vitest';
import { newId, timeOrderedId, PROBE_ID_PATTERN } from '../../src/domain/ids.js';

describe('ids', () => {
  it('timeOrderedId: later times sort later, as strings (what SQLite compares)', () => {
    const times = [0, 1, 61, 62, 1_000_000, 1_795_000_000_000_000, 1_795_000_000_000_001, Number.MAX_SAFE_INTEGER];
    const ids = times.map((t) => timeOrderedId(t, 4));
    for (let i = 1; i < ids.length; i++) expect(ids[i - 1].slice(0, 9) < ids[i].slice(0, 9)).toBe(true);
    expect(ids.every((id) => id.length === 13)).toBe(true);
  });

  it('timeOrderedId: the same microsecond still gives different ids', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newId.check(1_795_000_000_000_000)));
    expect(ids.size).toBe(1000);
  });

  it('timeOrderedId: times outside the range are clamped, never a malformed id', () => {
    expect(timeOrderedId(-5, 2)).toMatch(/^0{9}[0-9A-Za-z]{2}$/);
    expect(timeOrderedId(253_402_300_799_000_000, 2).slice(0, 9)).toBe(timeOrderedId(Number.MAX_SAFE_INTEGER, 2).slice(0, 9));
    expect(timeOrderedId(NaN, 2)).toMatch(/^[0-9A-Za-z]{11}$/);
  });

  it('newId: prefixes and lengths; a probe id keeps the documented pattern', () => {
    expect(newId.session(1)).toMatch(/^ses_[0-9A-Za-z]{24}$/);
    expect(newId.check(1)).toMatch(/^chk_[0-9A-Za-z]{22}$/);
    expect(newId.probe(1)).toMatch(PROBE_ID_PATTERN);
  });
});

import { describe, expect, it } from 'vitest';
import { wholeNumberOf } from '../../src/domain/whole-number.js';

describe('wholeNumberOf', () => {
  it('wholeNumberOf: digits (and a leading minus) are the number they spell', () => {
    expect(wholeNumberOf('16')).toBe(16);
    expect(wholeNumberOf('007')).toBe(7);
    expect(wholeNumberOf('-1')).toBe(-1);
  });

  it('wholeNumberOf: what Number() would also read (hex, exponents, blanks, decimals, nothing) is NaN', () => {
    for (const text of ['0x10', '1e1', '', ' ', ' 5', '5 ', '2.0', '+5', '1_000', '12345678901234567']) expect(wholeNumberOf(text), text).toBeNaN();
  });
});

import { describe, expect, it } from 'vitest';
import { addDecimals } from '../../src/domain/decimal.js';

describe('addDecimals', () => {
  it('addDecimals: sums to the decimal places of its terms', () => {
    expect(addDecimals(0.1, 0.2)).toBe(0.3);
    expect(addDecimals(19.99, 5.01)).toBe(25);
    expect(addDecimals(20.29, 5.01)).toBe(25.3);
    expect(addDecimals(1.005, 0.001)).toBe(1.006);
    expect(addDecimals(-0.3, 0.1)).toBe(-0.2);
    expect(addDecimals(3, 4)).toBe(7);
  });

  it('addDecimals: exponent forms, and sums past the largest number, add as plain floats', () => {
    expect(addDecimals(0.1, 1e-20)).toBe(0.1 + 1e-20);
    expect(addDecimals(1e21, 0.5)).toBe(1e21 + 0.5);
    expect(addDecimals(Number.MAX_VALUE, Number.MAX_VALUE)).toBe(Infinity);
  });
});

// Sums of decimal amounts (a session's `value`): JSON numbers are read as binary floats, so
// 0.1 + 0.2 would be 0.30000000000000004. A sum is rounded to the decimal places of its terms, which
// is exact for amounts such as prices; terms in exponent form or with more than 15 places add as
// plain floats.

/** Digits after the point in the shortest form of `x`; null in exponent form (1e-7, 1e+21). */
function places(x: number): number | null {
  const s = String(x);
  if (s.includes('e')) return null;
  const dot = s.indexOf('.');
  return dot < 0 ? 0 : s.length - dot - 1;
}

/** a + b as decimals: 0.1 + 0.2 is 0.3, 19.99 + 5.01 is 25. */
export function addDecimals(a: number, b: number): number {
  const sum = a + b;
  const pa = places(a);
  const pb = places(b);
  if (pa === null || pb === null || !Number.isFinite(sum)) return sum;
  const p = Math.max(pa, pb);
  if (p === 0 || p > 15) return sum;
  const rounded = Number(sum.toFixed(p));
  return Number.isFinite(rounded) ? rounded : sum;
}

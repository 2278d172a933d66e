import { describe, expect, it } from 'vitest';
import { memoized } from '../../src/checks/memo.js';
import { checkPhone } from '../../src/checks/phone.js';

describe('memoized', () => {
  it('memoized: runs once per input; a changed result never reaches the next caller', () => {
    let runs = 0;
    const f = memoized(10, (s: string) => s, (s: string) => ({ n: ++runs, s }));
    const a = f('x');
    a.s = 'changed';
    expect(f('x')).toEqual({ n: 1, s: 'x' });
    expect(f('y')).toEqual({ n: 2, s: 'y' });
    expect(runs).toBe(2);
  });

  it('memoized: the least recently used input goes first when full; long inputs are not kept', () => {
    let runs = 0;
    const f = memoized(2, (s: string) => s, (s: string) => ({ n: ++runs, s }));
    f('a');
    f('b');
    f('a'); // a is now the most recent
    f('c'); // drops b
    expect(f('a').n).toBe(1);
    expect(f('b').n).toBe(4);
    const long = 'z'.repeat(2000);
    f(long);
    f(long);
    expect(runs).toBe(6);
  });

  it('checkPhone: the same answer from the memo as the first time, for each site country', () => {
    const first = checkPhone('(212) 664-7665', 'US');
    expect(checkPhone('(212) 664-7665', 'US')).toEqual(first);
    expect(checkPhone('(212) 664-7665', 'GB')).not.toEqual(first);
  });
});

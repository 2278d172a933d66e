import { describe, expect, it } from 'vitest';
import { memoKey, memoized } from '../../src/checks/memo.js';
import { checkPhone } from '../../src/checks/phone.js';

describe('memoized', () => {
  it('memoized: runs once per input; no caller can change the result the next one gets', () => {
    let runs = 0;
    const f = memoized(10, (s: string) => s, (s: string) => ({ n: ++runs, s }));
    const a = f('x');
    expect(() => ((a as { s: string }).s = 'changed')).toThrow(TypeError);
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

  it('memoized: an input used often enough stays however many others come and go; one left unused goes', () => {
    let runs = 0;
    const f = memoized(8, (s: string) => s, (s: string) => ({ n: ++runs, s }));
    const hot = f('hot').n;
    const cold = f('cold').n;
    for (let i = 0; i < 100; i++) {
      f(`other${i}`);
      if (i % 5 === 0) expect(f('hot').n).toBe(hot); // a hit at least every 6 additions (3/4 of 8)
    }
    expect(f('hot').n).toBe(hot);
    expect(f('cold').n).not.toBe(cold);
  });

  it('checkPhone: the same answer from the memo as the first time, for each site country', () => {
    const first = checkPhone('(212) 664-7665', 'US');
    expect(checkPhone('(212) 664-7665', 'US')).toEqual(first);
    expect(checkPhone('(212) 664-7665', 'GB')).not.toEqual(first);
  });
});

describe('memoKey', () => {
  it('memoKey: different parts never share a key, whatever they hold', () => {
    const cases: unknown[][] = [
      ['a', 'b'], ['a\u0000', 'b'], ['a', '\u0000b'], ['ab'], ['a', 'b', null], ['a', 'b', ''],
      ['a', null, 'b'], ['a', '', 'b'], [null], [''], ['\u0001'], ['\u0002["a"]'], [1], ['1'], [{ x: 1 }], ['a\u0001\u0000'],
    ];
    const keys = cases.map((c) => memoKey(...c));
    expect(new Set(keys).size).toBe(keys.length);
    // absent is absent, however it is written
    expect(memoKey('a', null)).toBe(memoKey('a', undefined));
  });

  it('memoized.withBytes: the JSON (UTF-8) of the same result the plain call gives', () => {
    const f = memoized(10, (s: string) => s, (s: string) => ({ s, n: s.length }));
    const { value, bytes } = f.withBytes('abc');
    expect(value).toEqual(f('abc'));
    expect(bytes.toString()).toBe(JSON.stringify(f('abc')));
    expect(() => ((value as { s: string }).s = 'changed')).toThrow(TypeError);
    expect(f.withBytes('abc').bytes.toString()).toBe('{"s":"abc","n":3}');
  });
});

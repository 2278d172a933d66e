import { describe, expect, it } from 'vitest';
import { jsonText } from '../../src/domain/json-text.js';

describe('jsonText', () => {
  it('jsonText: a frozen object is serialised once, its later callers get the same text', () => {
    let calls = 0;
    const value = Object.freeze({ a: 1, toJSON: () => (calls++, { a: 1 }) });
    expect(jsonText(value)).toBe('{"a":1}');
    expect(jsonText(value)).toBe('{"a":1}');
    expect(calls).toBe(1);
  });

  it('jsonText: an object that is not frozen is serialised as it is now', () => {
    const value: { a: number } = { a: 1 };
    expect(jsonText(value)).toBe('{"a":1}');
    value.a = 2;
    expect(jsonText(value)).toBe('{"a":2}');
  });

  it('jsonText: scalars and null are plain JSON', () => {
    expect([jsonText(null), jsonText('x'), jsonText(3), jsonText([1])]).toEqual(['null', '"x"', '3', '[1]']);
  });
});

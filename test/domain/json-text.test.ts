import { describe, expect, it } from 'vitest';
import { jsonAnswer, jsonText } from '../../src/domain/json-text.js';

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

  it('jsonAnswer: a frozen object is sent as the UTF-8 bytes of its text, made once', () => {
    let calls = 0;
    const value = Object.freeze({ name: 'Zoë', toJSON: () => (calls++, { name: 'Zoë' }) });
    const first = jsonAnswer(value);
    expect(first).toBeInstanceOf(Uint8Array);
    expect(new TextDecoder().decode(first as Uint8Array)).toBe('{"name":"Zoë"}');
    expect(jsonAnswer(value)).toBe(first);
    expect(calls).toBe(1);
  });

  it('jsonAnswer: the bytes of a frozen object whose text was made (a stored check) come from that text', () => {
    let calls = 0;
    const value = Object.freeze({ a: 1, toJSON: () => (calls++, { a: 1 }) });
    jsonText(value);
    expect(new TextDecoder().decode(jsonAnswer(value) as Uint8Array)).toBe('{"a":1}');
    expect(calls).toBe(1);
  });

  it('jsonAnswer: an object that is not frozen is sent as its text now', () => {
    const value: { a: number } = { a: 1 };
    expect(jsonAnswer(value)).toBe('{"a":1}');
    value.a = 2;
    expect(jsonAnswer(value)).toBe('{"a":2}');
  });
});

import { describe, expect, it } from 'vitest';
import { jsonAnswer, jsonText } from '../../src/domain/json-text.js';
import { SEARCHED_CHARS, whereJsonStops } from '../../src/domain/json-text.js';

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

describe('whereJsonStops', () => {
  it('whereJsonStops: a stop JSON.parse names by position, and one it names only by its token ("nul}", "[}"), at the character where no JSON could go on', () => {
    expect(whereJsonStops('{"a":1,}')).toEqual({ position: 7, line: 1, column: 8 });
    expect(whereJsonStops('[}')).toEqual({ position: 1, line: 1, column: 2 });
    expect(whereJsonStops('{\n  "a": nul,\n  "b": 2\n}')).toEqual({ position: 12, line: 2, column: 11 });
    expect(whereJsonStops('[tx]')).toEqual({ position: 2, line: 1, column: 3 });
  });

  it('whereJsonStops: past SEARCHED_CHARS, a stop JSON.parse names only by its token is not searched for (null), one it names by position still is', () => {
    const pad = ' '.repeat(SEARCHED_CHARS);
    expect(whereJsonStops(`[${pad}nul]`)).toBeNull();
    expect(whereJsonStops(`[${pad}{"a" 1}]`)).toEqual({ position: SEARCHED_CHARS + 6, line: 1, column: SEARCHED_CHARS + 7 });
  });

  it('whereJsonStops: a document that is whole, or only ends early, has no stop inside', () => {
    expect(whereJsonStops('{"a":[1,2]}')).toBeNull();
    expect(whereJsonStops('{"a":[1,')).toBeNull();
    expect(whereJsonStops('{"a":"b')).toBeNull();
  });
});

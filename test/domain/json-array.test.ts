import { describe, expect, it } from 'vitest';
import { jsonArrayAppend, jsonArrayHas } from '../../src/domain/json-array.js';

// Strings that could fool a substring search: quotes, commas, brackets, backslashes, spaces, escapes.
const TRICKY = ['conversion', 'a', '', ' ', ',', '[', ']', '"', '\\', 'con"version', '"conversion"', 'x,"conversion",y',
  'conversion ', ' conversion', 'Conversion', 'conversion\\', 'naïve', '😀', '\u2028', 'a\nb', '["conversion"]', 'sign up'];

function arrays(): string[][] {
  const out: string[][] = [[]];
  for (let n = 1; n <= 3; n++) {
    for (let k = 0; k < 60; k++) out.push(Array.from({ length: n }, (_, i) => TRICKY[(k * 7 + i * 13 + n) % TRICKY.length]));
  }
  return out;
}

describe('json-array', () => {
  it('jsonArrayHas: agrees with includes() on the parsed array, for compact and spaced text', () => {
    let checked = 0;
    for (const arr of arrays()) {
      for (const text of [JSON.stringify(arr), JSON.stringify(arr, null, 1), `[ ${arr.map((s) => JSON.stringify(s)).join(' ,  ')} ]`]) {
        for (const v of TRICKY) {
          expect(jsonArrayHas(text, v), `${text} has ${JSON.stringify(v)}`).toBe(arr.includes(v));
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(10_000);
  });

  it('jsonArrayHas: an element spelled with escapes is still found', () => {
    expect(jsonArrayHas('["\\u0063onversion"]', 'conversion')).toBe(true);
    expect(jsonArrayHas('["a\\"b"]', 'a"b')).toBe(true);
    expect(jsonArrayHas('["a\\"b"]', 'b')).toBe(false);
  });

  it('jsonArrayAppend: the same text JSON.stringify writes, for compact stored arrays', () => {
    for (const arr of arrays()) {
      for (const v of TRICKY) expect(jsonArrayAppend(JSON.stringify(arr), v)).toBe(JSON.stringify([...arr, v]));
    }
  });

  it('jsonArrayAppend: spaced or broken text still gives the array with the value appended', () => {
    expect(JSON.parse(jsonArrayAppend('[ "a" , "b" ]', 'c'))).toEqual(['a', 'b', 'c']);
    expect(JSON.parse(jsonArrayAppend('[ ]', 'c'))).toEqual(['c']);
    expect(JSON.parse(jsonArrayAppend('not json', 'c'))).toEqual(['c']);
  });
});

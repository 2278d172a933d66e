import { describe, expect, it } from 'vitest';
import { formatFilterError } from '../../../src/domain/filter/index.js';
import { fail } from './helpers.js';

describe('formatFilterError', () => {
  it('caret: two lines, the caret under the error position', () => {
    const src = 'channel = paid and chanel = paid';
    expect(formatFilterError(src, fail(src))).toBe(`${src}\n${' '.repeat(19)}^`);
  });

  it('caret: at the end of the filter for a missing value', () => {
    expect(formatFilterError('channel =', fail('channel ='))).toBe('channel =\n         ^');
  });

  it('caret: control characters and newlines are shown as spaces so the caret stays aligned', () => {
    const src = 'channel = paid\nand chanel = paid';
    expect(formatFilterError(src, fail(src))).toBe(`channel = paid and chanel = paid\n${' '.repeat(19)}^`);
  });

  it('caret: bidi controls are shown as spaces, so they neither reorder the line nor move the caret', () => {
    const src = 'source = "a\u202Eb" and chanel = paid';
    expect(formatFilterError(src, fail(src))).toBe(`source = "a b" and chanel = paid\n${' '.repeat(19)}^`);
  });

  it('caret: long filters are windowed around the position', () => {
    const src = `${Array.from({ length: 40 }, () => 'city is null').join(' and ')} and chanel = paid`;
    const out = formatFilterError(src, fail(src));
    const [line, caret] = out.split('\n');
    expect(line.length).toBeLessThanOrEqual(78);
    expect(line.startsWith('…')).toBe(true);
    expect(line.slice(caret.length - 1, caret.length + 5)).toBe('chanel');
    expect(caret.trim()).toBe('^');
  });
});

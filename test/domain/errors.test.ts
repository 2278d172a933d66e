import { describe, expect, it } from 'vitest';
import { shownId } from '../../src/domain/errors.js';

describe('shownId', () => {
  it('shownId: a plain id is shown as given', () => {
    expect(shownId('site_abc123')).toBe('site_abc123');
  });

  it('shownId: control characters, spaces and line separators are shown escaped, in quotes', () => {
    expect(shownId('\u0000')).toBe('"\\u0000"');
    expect(shownId('a\nb c')).toBe('"a\\nb c"');
    expect(shownId('x\u0085\u2028\u007f')).toBe('"x\\u0085\\u2028\\u007f"');
    expect(shownId('')).toBe('""');
    // Bidi overrides and zero-width characters would reorder or hide what a terminal shows.
    expect(shownId('a\u202eb\u200bc')).toBe('"a\\u202eb\\u200bc"');
  });

  it('shownId: a long value is cut, saying so', () => {
    expect(shownId('y'.repeat(101))).toBe(`"${'y'.repeat(100)}…"`);
    expect(shownId('z'.repeat(150), 200)).toBe('z'.repeat(150));
  });
});

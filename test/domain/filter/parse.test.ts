import { describe, expect, it } from 'vitest';
import { parseFilter, type FilterNode } from '../../../src/domain/filter/index.js';

describe('parseFilter', () => {
  it('=: parses a clause with a bare word', () => {
    expect(parseFilter('channel = paid')).toEqual({ type: 'compare', field: 'channel', op: '=', value: 'paid' });
  });

  it('comparison ops: parses all six operators, with or without spaces', () => {
    for (const op of ['=', '!=', '<', '<=', '>', '>=']) {
      expect(parseFilter(`page_views${op}3`)).toEqual({ type: 'compare', field: 'page_views', op, value: 3 });
    }
  });

  it('in: parses a list of values; not in negates', () => {
    expect(parseFilter('risk_level in (suspicious, invalid)')).toEqual({
      type: 'in',
      field: 'risk_level',
      negated: false,
      values: ['suspicious', 'invalid'],
    });
    expect(parseFilter('country_code not in ("US")')).toEqual({
      type: 'in',
      field: 'country_code',
      negated: true,
      values: ['US'],
    });
  });

  it('contains: parses on array and string fields; not contains negates', () => {
    expect(parseFilter('risks contains vpn')).toEqual({ type: 'contains', field: 'risks', negated: false, value: 'vpn' });
    expect(parseFilter('user_agent not contains Headless')).toEqual({
      type: 'contains',
      field: 'user_agent',
      negated: true,
      value: 'Headless',
    });
  });

  it('is null: parses is null and is not null', () => {
    expect(parseFilter('city is null')).toEqual({ type: 'null', field: 'city', negated: false });
    expect(parseFilter('city is not null')).toEqual({ type: 'null', field: 'city', negated: true });
  });

  it('precedence: and binds tighter than or', () => {
    expect(parseFilter('channel = paid or channel = direct and returned = true')).toEqual({
      type: 'or',
      children: [
        { type: 'compare', field: 'channel', op: '=', value: 'paid' },
        {
          type: 'and',
          children: [
            { type: 'compare', field: 'channel', op: '=', value: 'direct' },
            { type: 'compare', field: 'returned', op: '=', value: true },
          ],
        },
      ],
    });
  });

  it('parentheses: override precedence', () => {
    const n = parseFilter('(channel = paid or channel = direct) and returned = true');
    expect(n.type).toBe('and');
    expect((n as Extract<FilterNode, { type: 'and' }>).children[0].type).toBe('or');
  });

  it('not: negates a group or a clause', () => {
    expect(parseFilter('not (city is null)')).toEqual({ type: 'not', child: { type: 'null', field: 'city', negated: false } });
    expect(parseFilter('NOT city is null')).toEqual({ type: 'not', child: { type: 'null', field: 'city', negated: false } });
  });

  it('keywords: are case-insensitive (fields too), values keep their case', () => {
    expect(parseFilter('Custom_Events CONTAINS Signup And channel IN (paid) OR city IS NOT NULL')).toEqual({
      type: 'or',
      children: [
        {
          type: 'and',
          children: [
            { type: 'contains', field: 'custom_events', negated: false, value: 'Signup' },
            { type: 'in', field: 'channel', negated: false, values: ['paid'] },
          ],
        },
        { type: 'null', field: 'city', negated: true },
      ],
    });
  });

  it('bare words: allow letters, digits, _ - . / : @ and unicode letters', () => {
    const v = (src: string) => (parseFilter(src) as { value: unknown }).value;
    expect(v('entry_path = /pricing')).toBe('/pricing');
    expect(v('referrer_domain = example.com')).toBe('example.com');
    expect(v('ip = 192.0.2.10')).toBe('192.0.2.10');
    expect(v('source = a_b-c:d@e')).toBe('a_b-c:d@e');
    expect(v('city = München')).toBe('München');
    expect(v('created_at > 2025-01-02T00:00:00Z')).toBe('2025-01-02T00:00:00.000000');
  });

  it('bare words: letters written with combining marks (Devanagari, a decomposed ü) stay one word, as written', () => {
    const v = (src: string) => (parseFilter(src) as { value: unknown }).value;
    expect(v('city = मुंबई')).toBe('मुंबई');
    expect(v('city = München')).toBe('München');
    expect(parseFilter('city = München or city = Berlin')).toMatchObject({ type: 'or' });
  });

  it('times: created_at / updated_at compare with a time in their stored form, however it is written', () => {
    const v = (src: string) => (parseFilter(src) as { value: unknown }).value;
    expect(v('created_at > 2026-11-26')).toBe('2026-11-26T00:00:00.000000');
    expect(v('created_at > "2026-11-26 10:00"')).toBe('2026-11-26T10:00:00.000000');
    expect(v('updated_at <= "2026-11-26T10:00:00.5"')).toBe('2026-11-26T10:00:00.500000');
    expect(v('created_at >= "2026-11-26T12:00:00+02:00"')).toBe('2026-11-26T10:00:00.000000');
    expect(v('created_at = 2026-11-26T10:00:00.123456Z')).toBe('2026-11-26T10:00:00.123456');
    // "contains" still looks for a substring of the text.
    expect(v('created_at contains 2026-11')).toBe('2026-11');
    for (const bad of ['created_at > yesterday', 'created_at > 5', 'created_at < 2026-02-30', 'updated_at >= "2026-11-26 25:00"']) {
      expect(() => parseFilter(bad), bad).toThrow(/expected a time for "(created|updated)_at" at position \d+, like 2026-11-26/);
    }
  });

  it('in: a list of times means what = does with each (the stored form), and a non-time is refused', () => {
    expect(parseFilter('created_at in ("2026-11-26 10:00", "2026-11-27T12:00:00+02:00")')).toEqual({
      type: 'in', field: 'created_at', negated: false, values: ['2026-11-26T10:00:00.000000', '2026-11-27T10:00:00.000000'],
    });
    for (const bad of ['created_at in (yesterday)', 'updated_at not in (2026-11-26, 5)']) {
      expect(() => parseFilter(bad), bad).toThrow(/expected a time for "(created|updated)_at" at position \d+, like 2026-11-26/);
    }
  });

  it('quoting: single and double quotes with backslash escapes', () => {
    const v = (src: string) => (parseFilter(src) as { value: unknown }).value;
    expect(v(`city = "New York"`)).toBe('New York');
    expect(v(`city = 'New York'`)).toBe('New York');
    expect(v(`source = "say \\"hi\\""`)).toBe('say "hi"');
    expect(v(`source = 'it\\'s'`)).toBe("it's");
    expect(v(`source = "it's"`)).toBe("it's");
    expect(v(`source = "a\\\\b\\n\\t\\r"`)).toBe('a\\b\n\t\r');
    expect(v(`source = ""`)).toBe('');
    expect(v(`source = "and"`)).toBe('and');
    expect(v(`source = "null"`)).toBe('null');
  });

  it('quoting: typographic quotes pasted from a document or chat work as straight ones', () => {
    const v = (src: string) => (parseFilter(src) as { value: unknown }).value;
    expect(v('city = “New York”')).toBe('New York');
    expect(v('city = ‘New York’')).toBe('New York');
    expect(v('source = “it’s”')).toBe('it’s');
    expect(v('source = "“quoted”"')).toBe('“quoted”');
    expect(parseFilter('risk_level in (“suspicious”, ‘invalid’)')).toMatchObject({ values: ['suspicious', 'invalid'] });
    expect(() => parseFilter('city = “New York')).toThrow('unclosed string starting at position 7: expected a closing ”');
  });

  it('numbers: integers, decimals and negatives; coerced from quoted strings; raw text on text fields', () => {
    const v = (src: string) => (parseFilter(src) as { value: unknown }).value;
    expect(v('page_views = 3')).toBe(3);
    expect(v('value >= 12.50')).toBe(12.5);
    expect(v('value > -1.5')).toBe(-1.5);
    expect(v('page_views = "3"')).toBe(3);
    expect(v('source_id = 007')).toBe('007');
    expect(v('browser_version = 120.0')).toBe('120.0');
  });

  it('booleans: true/false in any case, also quoted', () => {
    const v = (src: string) => (parseFilter(src) as { value: unknown }).value;
    expect(v('returned = true')).toBe(true);
    expect(v('returned != FALSE')).toBe(false);
    expect(v('returned = "True"')).toBe(true);
    expect(v('source = true')).toBe('true'); // a text field keeps the word
  });

  it('whitespace: tabs and newlines separate tokens', () => {
    expect(parseFilter('channel\t=\npaid\r\nand city is null').type).toBe('and');
  });
});

import { describe, expect, it } from 'vitest';
import { FilterError, parseFilter } from '../../../src/domain/filter/index.js';
import { fail } from './helpers.js';

describe('parseFilter errors', () => {
  it('empty: refuses an empty or blank filter at position 0', () => {
    for (const src of ['', '   ', '\n\t']) {
      const e = fail(src);
      expect(e.position).toBe(0);
      expect(e.message).toMatch(/empty filter.*position 0/);
    }
  });

  it('unknown field: names the field, its position and a close suggestion', () => {
    const e = fail('risk_level = invalid and chanel = paid');
    expect(e.position).toBe(25);
    expect(e.message).toBe('unknown field "chanel" at position 25 (did you mean "channel"?)');
    expect(fail('country = US').message).toContain('did you mean "country_code"?');
    expect(fail('zzzzzz = 1').message).toBe('unknown field "zzzzzz" at position 0: expected a Session field name');
  });

  it('missing operator: says an operator was expected after the field', () => {
    const e = fail('channel');
    expect(e.position).toBe(7);
    expect(e.message).toMatch(/^expected an operator \(.*\) after "channel" at position 7, found the end of the filter$/);
    const e2 = fail('channel  paid');
    expect(e2.position).toBe(9);
    expect(e2.message).toContain('after "channel" at position 9, found "paid"');
    expect(fail('city is').message).toContain('expected "null" or "not null" after "is" at position 7');
    expect(fail('city is not nul').position).toBe(12);
    expect(fail('risks not vpn').message).toContain('expected "in" or "contains" after "not" at position 10');
  });

  it('missing value: says a value was expected', () => {
    const e = fail('channel =');
    expect(e.position).toBe(9);
    expect(e.message).toBe('expected a value after "=" at position 9, found the end of the filter');
    expect(fail('source = and city is null').message).toBe(
      'expected a value (quote "and" / "or" to match the word) after "=" at position 9, found "and"',
    );
  });

  it('missing value: in () needs at least one value, and no trailing comma', () => {
    expect(fail('channel in ()').message).toBe('expected a value after "(" at position 12, found ")"');
    expect(fail('channel in (paid,)').position).toBe(17);
    expect(fail('channel in paid').message).toContain('expected "(" to start the list of values after "in" at position 11');
  });

  it('unclosed paren: points at the end and names the opening position', () => {
    const e = fail('(channel = paid or city is null');
    expect(e.position).toBe(31);
    expect(e.message).toBe('unclosed "(" at position 0: expected ")" at position 31, found the end of the filter');
    const l = fail('channel in (paid, direct');
    expect(l.position).toBe(24);
    expect(l.message).toContain('unclosed list "(" at position 11');
    expect(fail('(channel = paid city is null').message).toContain('expected ")" to close the "(" at position 0 after "paid" at position 16');
  });

  it('unclosed quote: points at the opening quote', () => {
    const e = fail('city = "New York');
    expect(e.position).toBe(7);
    expect(e.message).toBe('unclosed string starting at position 7: expected a closing "');
    expect(fail("city = 'x\\'").position).toBe(7);
    expect(fail('city = "x\\').position).toBe(7);
  });

  it('bad escape: points at the backslash', () => {
    const e = fail('city = "a\\qb"');
    expect(e.position).toBe(9);
    expect(e.message).toContain('unknown escape "\\q" at position 9');
  });

  it('unquoted spaces: a text value written with a space is refused with the value quoted', () => {
    const e = fail('city = New York');
    expect([e.position, e.message]).toEqual([
      11, 'expected "and", "or" or the end of the filter after "New" at position 11, found "York" (quote a value that has spaces: "New York")',
    ]);
    expect(fail('(city = New York or city = Paris)').message).toContain('found "York" (quote a value that has spaces: "New York")');
    expect(fail('source_campaign in (Spring Sale)').message).toContain('(quote a value that has spaces: "Spring Sale")');
    // Not where no text value takes a space: a missing "and", a closed vocabulary, a number.
    expect(fail('channel = paid direct').message).not.toContain('quote');
    expect(fail('page_views = 3 4').message).not.toContain('quote');
    expect(fail('city = "New" York').message).not.toContain('quote');
  });

  it('trailing junk: refuses anything after a complete expression', () => {
    const e = fail('channel = paid direct');
    expect(e.position).toBe(15);
    expect(e.message).toBe('expected "and", "or" or the end of the filter after "paid" at position 15, found "direct"');
    expect(fail('channel = paid)').message).toBe('unexpected ")" at position 14: no "(" to close');
    expect(fail('channel = paid and').message).toContain('expected a field name after "and" at position 18');
    expect(fail('channel = paid or or').position).toBe(18);
  });

  it('unexpected character: names it and its position', () => {
    expect(fail('page_views * 3').message).toBe('unexpected character "*" at position 11 (quote values that contain it)');
    expect(fail('channel ! paid').message).toContain('did you mean "!="');
    expect(fail('city = a\u0001b').message).toContain('U+0001 at position 8');
    expect(fail('source = 🚀').message).toBe('unexpected character "🚀" at position 9 (quote values that contain it)');
  });

  it('operators from other languages: ==, <>, &&, || are refused naming the one meant', () => {
    expect(fail('channel == paid').message).toBe('"==" at position 8 is not an operator: write "="');
    expect(fail('page_views <> 1').message).toBe('"<>" at position 11 is not an operator: write "!="');
    const and = fail('channel = paid && returned = true');
    expect([and.position, and.message]).toEqual([15, '"&&" at position 15 is not an operator: write "and"']);
    expect(fail('channel = paid || channel = direct').message).toBe('"||" at position 15 is not an operator: write "or"');
    expect(fail('channel = paid & x').message).toBe('unexpected character "&" at position 15 (quote values that contain it)');
  });

  it('types: refuses operators that do not fit the field kind', () => {
    expect(fail('channel < paid').message).toBe(
      'operator "<" at position 8 cannot be used on the text field "channel": <, <=, > and >= work on number fields and on created_at / updated_at',
    );
    expect(fail('risks = vpn').position).toBe(6);
    expect(fail('risks in (vpn)').message).toContain('list field "risks"');
    expect(fail('returned > true').message).toContain('true/false field "returned"');
    expect(fail('returned in (true)').position).toBe(9);
    expect(fail('page_views contains 3').message).toContain('"contains" works on list and text fields');
    expect(fail('returned contains true').position).toBe(9);
  });

  it('values: coerces to the field kind or refuses with the value position', () => {
    expect(fail('returned = yes').message).toBe('expected true or false for "returned" at position 11, found "yes"');
    expect(fail('page_views = many').message).toBe('expected a number for "page_views" at position 13, found "many"');
    expect(fail('page_views = "3x"').message).toContain('found "3x"');
    expect(fail('page_views = 1e3').position).toBe(13);
    expect(fail('city = null').message).toContain('use "city is null" or "city is not null"');
    expect(fail('channel in (paid, NULL)').position).toBe(18);
  });

  it('enums: refuses unknown channel / risk_level values with a suggestion', () => {
    expect(fail('channel = payed').message).toBe(
      'unknown channel "payed" at position 10: expected one of paid, other, referral, direct (did you mean "paid"?)',
    );
    expect(fail('risk_level in (suspicious, Invalid)').message).toContain('did you mean "invalid"?');
    expect(fail('device_type != phone').position).toBe(15);
    // contains is a substring test, not a value: anything goes
    expect(parseFilter('channel contains ai').type).toBe('contains');
  });

  it('enums: a list of labels (actions, risks) refuses an unknown label after contains, with a suggestion', () => {
    expect(fail('actions contains blocked').message).toBe(
      'unknown action "blocked" at position 17: expected one of allow, allow_review, review, block_review, block (did you mean "block"?)',
    );
    expect(fail('risks not contains disposable').message).toContain('did you mean "disposable_email"?');
    expect(fail('risks contains VPN').position).toBe(15);
    expect(parseFilter('actions contains block_review and risks contains high_ip_frequency').type).toBe('and');
    // Other lists are open: any custom event name goes.
    expect(parseFilter('custom_events contains anything').type).toBe('contains');
  });

  it('bidi controls: a saved filter holding one (U+202A–U+202E, U+2066–U+2069) in a quoted value is refused at its position', () => {
    const reason = 'must not contain bidirectional controls (U+202A–U+202E, U+2066–U+2069): they reorder the text shown after them';
    for (const [src, pos, code] of [
      ['source = "a\u202Eb"', 11, 'U+202E'],
      ["city = 'x\u202A'", 9, 'U+202A'],
      ['channel = paid and user_agent contains "\u2066x\u2069"', 40, 'U+2066'],
    ] as const) {
      let err: unknown;
      try {
        parseFilter(src, { saved: true });
      } catch (e) {
        err = e;
      }
      expect(err, src).toBeInstanceOf(FilterError);
      expect((err as FilterError).position, src).toBe(pos);
      expect((err as FilterError).message, src).toBe(`${code} at position ${pos}: a filter ${reason}`);
    }
  });

  it('bidi controls: a filter stored before they were refused, or a typed query, still parses with them', () => {
    expect(parseFilter('source = "a\u202Eb"')).toEqual({ type: 'compare', field: 'source', op: '=', value: 'a\u202Eb' });
    expect(parseFilter('source = "a\u202Eb"', { knownCountries: true }).type).toBe('compare');
  });

  it('bidi controls: one outside quotes is named by its code point, not shown (it would reorder the message)', () => {
    expect(fail('source = a\u202Eb').message).toBe('unexpected character U+202E at position 10 (quote values that contain it)');
  });
});

import { describe, expect, it } from 'vitest';
import {
  FilterError,
  formatFilterError,
  matchesFilter,
  parseFilter,
  MAX_FILTER_DEPTH,
  type FilterNode,
} from '../../src/domain/filter/index.js';
import { SESSION_FIELDS, type Session } from '../../src/domain/session.js';

function session(over: Partial<Session> = {}): Session {
  const base = Object.fromEntries(SESSION_FIELDS.map((f) => [f, null])) as unknown as Session;
  return {
    ...base,
    site_id: 'site_1',
    session_id: 'ses_1',
    created_at: '2025-01-02T03:04:05.000Z',
    updated_at: '2025-01-02T03:05:00.000Z',
    risks: [],
    actions: [],
    custom_events: [],
    ...over,
  };
}

/** Parses, expecting a FilterError; returns it. */
function fail(src: string): FilterError {
  try {
    parseFilter(src);
  } catch (e) {
    expect(e).toBeInstanceOf(FilterError);
    return e as FilterError;
  }
  throw new Error(`expected ${JSON.stringify(src)} to be refused`);
}

const match = (src: string, s: Session) => matchesFilter(parseFilter(src), s);

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
    expect(parseFilter('Risks CONTAINS VPN And channel IN (paid) OR city IS NOT NULL')).toEqual({
      type: 'or',
      children: [
        {
          type: 'and',
          children: [
            { type: 'contains', field: 'risks', negated: false, value: 'VPN' },
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
    expect(v('created_at > 2025-01-02T00:00:00Z')).toBe('2025-01-02T00:00:00Z');
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

  it('trailing junk: refuses anything after a complete expression', () => {
    const e = fail('channel = paid direct');
    expect(e.position).toBe(15);
    expect(e.message).toBe('expected "and", "or" or the end of the filter after "paid" at position 15, found "direct"');
    expect(fail('channel = paid)').message).toBe('unexpected ")" at position 14: no "(" to close');
    expect(fail('channel = paid and').message).toContain('expected a field name after "and" at position 18');
    expect(fail('channel = paid or or').position).toBe(18);
  });

  it('unexpected character: names it and its position', () => {
    expect(fail('channel == paid').message).toContain('at position 9');
    expect(fail('page_views * 3').message).toBe('unexpected character "*" at position 11 (quote values that contain it)');
    expect(fail('channel ! paid').message).toContain('did you mean "!="');
    expect(fail('city = a\u0001b').message).toContain('U+0001 at position 8');
    expect(fail('source = 🚀').message).toBe('unexpected character "🚀" at position 9 (quote values that contain it)');
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
});

describe('parseFilter hostile input', () => {
  it('nesting: 10k nested parens is a FilterError, not a stack overflow', () => {
    const e = fail(`${'('.repeat(10_000)}city is null${')'.repeat(10_000)}`);
    // the length limit answers first; under it, the depth limit does
    expect(e.message).toMatch(/too long/);
    const d = fail(`${'('.repeat(1000)}city is null${')'.repeat(1000)}`);
    expect(d.message).toMatch(/nested too deeply at position 32/);
    expect(d.position).toBe(MAX_FILTER_DEPTH);
    expect(fail(`${'not '.repeat(900)}city is null`).message).toMatch(/nested too deeply/);
  });

  it('nesting: up to the limit parses and evaluates', () => {
    const n = MAX_FILTER_DEPTH;
    const node = parseFilter(`${'('.repeat(n)}city is null${')'.repeat(n)}`);
    expect(matchesFilter(node, session())).toBe(true);
  });

  it('length: 100k characters is refused with the limit position', () => {
    const e = fail('a'.repeat(100_000));
    expect(e.position).toBe(4000);
    expect(e.message).toContain('position 4000');
    expect(fail(`city = "${'x'.repeat(100_000)}"`).message).toMatch(/too long/);
  });

  it('length: a long or-chain under the limit parses flat', () => {
    const src = Array.from({ length: 500 }, (_, i) => `ip=${i % 10}`).join(' or ');
    expect(src.length).toBeLessThanOrEqual(4000);
    const n = parseFilter(src) as Extract<FilterNode, { type: 'or' }>;
    expect(n.children).toHaveLength(500);
  });

  it('control chars: refused outside quotes, kept inside', () => {
    for (const c of ['\u0000', '\u0007', '\u001b', '\u007f']) {
      expect(fail(`city = a${c}`).position).toBe(8);
    }
    expect((parseFilter('city = "a\u0000b"') as { value: unknown }).value).toBe('a\u0000b');
  });

  it('sql injection: quoted strings stay values, bare attempts are refused', () => {
    const v = (src: string) => (parseFilter(src) as { value: unknown }).value;
    expect(v(`city = "x' OR 1=1 --"`)).toBe("x' OR 1=1 --");
    expect(v(`city = 'Robert\\'); DROP TABLE sessions;--'`)).toBe("Robert'); DROP TABLE sessions;--");
    expect(fail(`city = x' OR '1'='1`).position).toBe(8);
    expect(fail('city = x; DROP TABLE sessions').position).toBe(8);
    expect(fail('"city" = x').message).toContain('expected a field name at position 0');
    expect(fail('city = x -- comment').position).toBe(9);
  });

  it('fuzz: random input only ever throws FilterError', () => {
    const alphabet = ['(', ')', ',', '=', '!', '<', '>', '"', "'", '\\', ' ', 'a', '1', '-', '.', 'not ', 'in ', 'and ', 'or ', 'is ', 'null ', 'city ', 'page_views ', 'risks ', 'contains ', '\u0000', 'é'];
    let seed = 42;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let k = 0; k < 3000; k++) {
      const len = Math.floor(rnd() * 20);
      const src = Array.from({ length: len }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join('');
      try {
        matchesFilter(parseFilter(src), session());
      } catch (e) {
        expect(e, src).toBeInstanceOf(FilterError);
        expect((e as FilterError).message, src).toMatch(/position \d+/);
      }
    }
  });
});

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

describe('matchesFilter', () => {
  const s = session({
    channel: 'paid',
    risk_level: 'suspicious',
    risks: ['vpn', 'anonymous'],
    page_views: 3,
    value: 12.5,
    returned: false,
    city: null,
    user_agent: 'Mozilla/5.0 HeadlessChrome/120',
  });

  it('=: matches equal values; case-sensitive', () => {
    expect(match('channel = paid', s)).toBe(true);
    expect(match('channel = direct', s)).toBe(false);
    expect(match('user_agent = "mozilla/5.0 headlesschrome/120"', s)).toBe(false);
    expect(match('returned = false', s)).toBe(true);
    expect(match('page_views = "3"', s)).toBe(true);
  });

  it('ordered ops: compare numbers and timestamps', () => {
    expect(match('page_views > 2 and page_views < 4 and page_views >= 3 and page_views <= 3', s)).toBe(true);
    expect(match('value > 12.5', s)).toBe(false);
    expect(match('created_at >= 2025-01-02 and created_at < "2025-01-03"', s)).toBe(true);
  });

  it('in: matches any listed value; not in negates', () => {
    expect(match('risk_level in (suspicious, invalid)', s)).toBe(true);
    expect(match('risk_level not in (suspicious, invalid)', s)).toBe(false);
    expect(match('page_views in (1, 2, 3)', s)).toBe(true);
  });

  it('contains: element equality on arrays, substring on text', () => {
    expect(match('risks contains vpn', s)).toBe(true);
    expect(match('risks contains vp', s)).toBe(false);
    expect(match('risks not contains tor', s)).toBe(true);
    expect(match('user_agent contains Headless', s)).toBe(true);
    expect(match('user_agent contains headless', s)).toBe(false);
  });

  it('null: a null field fails =, <, in, contains and passes !=, not in, not contains', () => {
    expect(match('city is null', s)).toBe(true);
    expect(match('city is not null', s)).toBe(false);
    expect(match('city = Paris', s)).toBe(false);
    expect(match('city != Paris', s)).toBe(true);
    expect(match('city in (Paris)', s)).toBe(false);
    expect(match('city not in (Paris)', s)).toBe(true);
    expect(match('city contains P', s)).toBe(false);
    expect(match('city not contains P', s)).toBe(true);
    expect(match('not (city = Paris)', s)).toBe(true);
    const n = session({ page_views: null });
    expect(match('page_views < 5', n)).toBe(false);
    expect(match('page_views >= 5', n)).toBe(false);
    expect(match('returned = false', n)).toBe(false);
    expect(match('returned != true', n)).toBe(true);
  });

  it('precedence: the contract example', () => {
    const src = 'risk_level in (suspicious, invalid) and channel = paid and risks contains vpn';
    expect(match(src, s)).toBe(true);
    expect(match(src, { ...s, channel: 'direct' })).toBe(false);
    expect(match('channel = direct and returned = true or risks contains vpn', s)).toBe(true);
    expect(match('channel = direct and (returned = true or risks contains vpn)', s)).toBe(false);
  });
});

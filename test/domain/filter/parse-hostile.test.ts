import { describe, expect, it } from 'vitest';
import { FilterError, matchesFilter, parseFilter, MAX_FILTER_DEPTH, type FilterNode } from '../../../src/domain/filter/index.js';
import { fail, session } from './helpers.js';

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

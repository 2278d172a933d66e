import { describe, expect, it } from 'vitest';
import { Chalk } from 'chalk';
import { keyValues, printable, printableLines, styled, table } from '../../src/cli/output.js';

const red = new Chalk({ level: 1 }).red;

describe('cli: text output of values', () => {
  it('printable: a colour sequence in a value is shown escaped, as every other control character', () => {
    expect(printable('a\u001b[31mred\u001b[0m b')).toBe('a\\u001b[31mred\\u001b[0m b');
    expect(printable('\u001b[1;32m')).toBe('\\u001b[1;32m');
    expect(printable('x\u001b]0;t\u0007\u009b\n')).toBe('x\\u001b]0;t\\u0007\\u009b\\n');
  });

  it('printable: line separators and bidirectional controls, which reorder or break the line shown, are escaped too', () => {
    expect(printable('a\u2028b\u202ec\u2066d')).toBe('a\\u2028b\\u202ec\\u2066d');
    expect(printable('Café \u202e✓')).toBe('Café \\u202e✓');
    expect(printable('Café ✓ 😀')).toBe('Café ✓ 😀');
  });

  it('printableLines: each line is escaped as printable does, the line breaks between them kept', () => {
    expect(printableLines('a\u001b[31m\nb\r\u2028c\n\nd\te')).toBe('a\\u001b[31m\nb\\r\\u2028c\n\nd\\te');
  });

  it('table / keyValues: a value carrying colour sequences is data and shown escaped', () => {
    const evil = red('invalid');
    expect(table(['A'], [[evil]])).not.toContain('\u001b');
    expect(table(['A'], [[evil]])).toContain('\\u001b[31minvalid\\u001b[39m');
    expect(keyValues([['risk', evil]])).not.toContain('\u001b');
    expect(keyValues([['events', [evil, 'ok']]])).toBe('events: \\u001b[31minvalid\\u001b[39m, ok');
  });

  it('table / keyValues: colour a renderer adds with styled() is kept, and columns align on the text it shows', () => {
    expect(table(['A', 'B'], [[styled(red('invalid')), 'x'], ['normal-level', 'y']])).toBe(`A             B\n${red('invalid')}       x\nnormal-level  y`);
    expect(keyValues([['risk', styled(red('invalid'))]])).toBe(`risk: ${red('invalid')}`);
  });
});

// Tokenizer for the saved-view / `--where` filter language (contract section 6).
// Lazy (one token at a time) so the first error by position is the one reported.
import { BIDI_CONTROL, NO_BIDI_CONTROLS } from '../names.js';

/** A filter the user wrote is invalid; `position` is the 0-based character offset of the problem. */
export class FilterError extends Error {
  readonly position: number;
  constructor(message: string, position: number) {
    super(message);
    this.name = 'FilterError';
    this.position = position;
  }
}

/** Two lines: the filter (windowed when long, control characters shown as spaces) and a caret. */
export function formatFilterError(src: string, err: { position: number }): string {
  const WIDTH = 76;
  const pos = Math.max(0, Math.min(err.position, src.length));
  // One character in, one character out, so the caret column stays aligned; a bidi control shown
  // would reorder the line.
  const line = src.replace(/[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g, ' ');
  if (line.length <= WIDTH) return `${line}\n${' '.repeat(pos)}^`;
  const start = Math.max(0, Math.min(pos - WIDTH / 2, line.length - WIDTH));
  const end = Math.min(line.length, start + WIDTH);
  const head = start > 0 ? '…' : '';
  const tail = end < line.length ? '…' : '';
  return `${head}${line.slice(start, end)}${tail}\n${' '.repeat(head.length + pos - start)}^`;
}

export type TokenKind = 'word' | 'number' | 'string' | 'op' | 'lparen' | 'rparen' | 'comma' | 'eof';

export interface Token {
  kind: TokenKind;
  /** Exact source text (quotes and escapes included for strings). */
  text: string;
  /** Decoded value: the unescaped content for strings, else same as `text`. */
  value: string;
  pos: number;
}

/** A token as an error message shows it: words and operators quoted, long text cut. */
export function describe(t: Token): string {
  if (t.kind === 'eof') return 'the end of the filter';
  const text = t.text.length > 30 ? `${t.text.slice(0, 30)}…` : t.text;
  return t.kind === 'string' ? text : `"${text}"`;
}

const WORD_CHAR = /[\p{L}\p{N}_\-./:@]/u;
/** Inside a word also combining marks: Devanagari vowel signs, a decomposed ü. */
const WORD_NEXT = /[\p{L}\p{M}\p{N}_\-./:@]/u;
const NUMBER = /^-?\d+(\.\d+)?$/;
const ESCAPES: Record<string, string> = { '\\': '\\', '"': '"', "'": "'", n: '\n', r: '\r', t: '\t' };
/** Operators of other languages, written out of habit, and the one meant here. */
const MEANT: Record<string, string> = { '==': '=', '<>': '!=', '&&': 'and', '||': 'or' };
/** Typographic quotes (a filter pasted from a document or chat) open a string closed by their pair. */
const TYPOGRAPHIC: Record<string, string> = { '\u201c': '\u201d', '\u2018': '\u2019' };

/**
 * Shows a character in an error message; control characters as U+XXXX so messages stay one line,
 * and bidi controls so, which would reorder the message.
 */
export function showChar(c: string): string {
  const code = c.codePointAt(0) ?? 0;
  return code < 0x20 || code === 0x7f || BIDI_CONTROL.test(c) ? `U+${code.toString(16).toUpperCase().padStart(4, '0')}` : `"${c}"`;
}

export class Lexer {
  private i = 0;
  private peeked: Token | null = null;
  /** saved: a view's or rule's filter being saved, shown in lists: no bidi controls, as in names. */
  constructor(private readonly src: string, private readonly saved = false) {}

  peek(): Token {
    return (this.peeked ??= this.scan());
  }

  next(): Token {
    const t = this.peek();
    this.peeked = null;
    return t;
  }

  private scan(): Token {
    const s = this.src;
    while (this.i < s.length && ' \t\n\r'.includes(s[this.i])) this.i++;
    const pos = this.i;
    if (pos >= s.length) return { kind: 'eof', text: '', value: '', pos };
    const c = s[pos];
    const tok = (kind: TokenKind, len: number): Token => {
      this.i = pos + len;
      const text = s.slice(pos, pos + len);
      return { kind, text, value: text, pos };
    };
    if (c === '(') return tok('lparen', 1);
    if (c === ')') return tok('rparen', 1);
    if (c === ',') return tok('comma', 1);
    const meant = MEANT[s.slice(pos, pos + 2)];
    if (meant) throw new FilterError(`"${s.slice(pos, pos + 2)}" at position ${pos} is not an operator: write "${meant}"`, pos);
    if (c === '=') return tok('op', 1);
    if (c === '<' || c === '>') return tok('op', s[pos + 1] === '=' ? 2 : 1);
    if (c === '!') {
      if (s[pos + 1] === '=') return tok('op', 2);
      throw new FilterError(`unexpected character "!" at position ${pos} (did you mean "!="?)`, pos);
    }
    if (c === '"' || c === "'") return this.string(pos, c);
    if (TYPOGRAPHIC[c]) return this.string(pos, TYPOGRAPHIC[c]);
    if (WORD_CHAR.test(c)) {
      let j = pos + 1;
      while (j < s.length && WORD_NEXT.test(s[j])) j++;
      const t = tok('word', j - pos);
      if (NUMBER.test(t.text)) t.kind = 'number';
      return t;
    }
    throw new FilterError(
      `unexpected character ${showChar(String.fromCodePoint(s.codePointAt(pos)!))} at position ${pos} (quote values that contain it)`,
      pos,
    );
  }

  private string(pos: number, quote: string): Token {
    const s = this.src;
    let out = '';
    let j = pos + 1;
    for (;;) {
      if (j >= s.length) {
        throw new FilterError(`unclosed string starting at position ${pos}: expected a closing ${quote}`, pos);
      }
      const c = s[j];
      if (c === quote) break;
      if (this.saved && BIDI_CONTROL.test(c)) throw new FilterError(`${showChar(c)} at position ${j}: a filter ${NO_BIDI_CONTROLS}`, j);
      if (c === '\\') {
        if (j + 1 >= s.length) {
          j++; // a trailing backslash: reported as unclosed on the next turn
          continue;
        }
        const e = s[j + 1];
        const mapped = ESCAPES[e];
        if (mapped === undefined) {
          throw new FilterError(
            `unknown escape "\\${e}" at position ${j}: expected one of \\\\ \\" \\' \\n \\r \\t`,
            j,
          );
        }
        out += mapped;
        j += 2;
        continue;
      }
      out += c;
      j++;
    }
    this.i = j + 1;
    return { kind: 'string', text: s.slice(pos, j + 1), value: out, pos };
  }
}

export function isNumberText(text: string): boolean {
  return NUMBER.test(text);
}

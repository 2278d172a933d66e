// Recursive-descent parser for the filter language (contract section 6). Type checks happen here
// (and value coercion in values.ts), so a saved view is refused at creation, never at match time.
//
//   filter  := or EOF
//   or      := and ("or" and)*
//   and     := unary ("and" unary)*
//   unary   := "not" unary | "(" or ")" | clause
//   clause  := field ("=" | "!=" | "<" | "<=" | ">" | ">=") value
//            | field ["not"] "in" "(" value ("," value)* ")"
//            | field ["not"] "contains" value
//            | field "is" ["not"] "null"
//   value   := bare word | 'quoted' | "quoted" | number | true | false

import { SESSION_FIELDS, SESSION_FIELD_KINDS, type SessionField } from '../session.js';
import { FilterError, Lexer, describe, type Token } from './lexer.js';
import { ENUMS, FIELD_BY_LOWER, KIND_NAMES, OPERATORS, ORDERED_TEXT } from './fields.js';
import { suggest } from './suggest.js';
import { coerceValue, storedTime } from './values.js';
import type { CompareOp, FilterNode, FilterValue } from './node.js';

// The library's option-name hints import it from here.

/** Bounds that keep hostile input from exhausting the stack or SQLite's expression depth. */
export const MAX_FILTER_LENGTH = 4000;
export const MAX_FILTER_DEPTH = 32;

/** knownCountries: country_code needs a real country; saved: no bidi controls (typed, saved filters; stored ones are read without). */
export function parseFilter(src: string, opts: { knownCountries?: boolean; saved?: boolean } = {}): FilterNode {
  if (typeof src !== 'string') throw new FilterError('the filter must be a string (position 0)', 0);
  if (src.length > MAX_FILTER_LENGTH) {
    throw new FilterError(
      `the filter is too long: ${src.length} characters, at most ${MAX_FILTER_LENGTH} (position ${MAX_FILTER_LENGTH})`,
      MAX_FILTER_LENGTH,
    );
  }
  return new Parser(src, opts.knownCountries ?? false, opts.saved ?? false).parse();
}

const isWord = (t: Token, kw: string) => t.kind === 'word' && t.text.toLowerCase() === kw;

class Parser {
  private readonly lx: Lexer;
  private prev: Token | null = null;
  /** The last value read, when it was an unquoted word for a text field outside a closed vocabulary. */
  private bareText: Token | null = null;
  private depth = 0;

  constructor(src: string, private readonly knownCountries: boolean, saved: boolean) {
    this.lx = new Lexer(src, saved);
  }

  parse(): FilterNode {
    if (this.lx.peek().kind === 'eof') {
      throw new FilterError('empty filter: expected a field name at position 0, e.g. "channel = paid"', 0);
    }
    const node = this.or();
    const t = this.lx.peek();
    if (t.kind === 'rparen') throw new FilterError(`unexpected ")" at position ${t.pos}: no "(" to close`, t.pos);
    if (t.kind !== 'eof') throw this.expected('"and", "or" or the end of the filter', t);
    return node;
  }

  private next(): Token {
    this.prev = this.lx.next();
    return this.prev;
  }

  private expected(what: string, t: Token): FilterError {
    const after = this.prev ? ` after ${describe(this.prev)}` : '';
    // `city = New York`: the word after a bare text value is most likely the rest of it.
    const spaced = this.prev !== null && this.prev === this.bareText && (t.kind === 'word' || t.kind === 'number')
      ? ` (quote a value that has spaces: "${this.prev.text} ${t.text}")`
      : '';
    return new FilterError(`expected ${what}${after} at position ${t.pos}, found ${describe(t)}${spaced}`, t.pos);
  }

  private enter(t: Token): void {
    if (++this.depth > MAX_FILTER_DEPTH) {
      throw new FilterError(
        `the filter is nested too deeply at position ${t.pos}: at most ${MAX_FILTER_DEPTH} levels of "(" and "not"`,
        t.pos,
      );
    }
  }

  private or(): FilterNode {
    const children = [this.and()];
    while (isWord(this.lx.peek(), 'or')) {
      this.next();
      children.push(this.and());
    }
    return children.length === 1 ? children[0] : { type: 'or', children };
  }

  private and(): FilterNode {
    const children = [this.unary()];
    while (isWord(this.lx.peek(), 'and')) {
      this.next();
      children.push(this.unary());
    }
    return children.length === 1 ? children[0] : { type: 'and', children };
  }

  private unary(): FilterNode {
    const t = this.lx.peek();
    if (isWord(t, 'not')) {
      this.enter(t);
      this.next();
      const child = this.unary();
      this.depth--;
      return { type: 'not', child };
    }
    if (t.kind === 'lparen') {
      this.enter(t);
      this.next();
      const inner = this.or();
      const close = this.lx.peek();
      if (close.kind !== 'rparen') {
        if (close.kind === 'eof') {
          throw new FilterError(
            `unclosed "(" at position ${t.pos}: expected ")" at position ${close.pos}, found the end of the filter`,
            close.pos,
          );
        }
        throw this.expected(`")" to close the "(" at position ${t.pos}`, close);
      }
      this.next();
      this.depth--;
      return inner;
    }
    return this.clause();
  }

  private clause(): FilterNode {
    const t = this.lx.peek();
    if (t.kind !== 'word' || ['and', 'or'].includes(t.text.toLowerCase())) {
      throw this.expected('a field name', t);
    }
    this.next();
    const field = FIELD_BY_LOWER.get(t.text.toLowerCase());
    if (!field) {
      const hint = suggest(t.text.toLowerCase(), SESSION_FIELDS);
      throw new FilterError(
        `unknown field "${t.text}" at position ${t.pos}${hint ? ` (did you mean "${hint}"?)` : ': expected a Session field name'}`,
        t.pos,
      );
    }
    const kind = SESSION_FIELD_KINDS[field];
    const opTok = this.lx.peek();
    const opError = () => this.expected(`an operator (${OPERATORS})`, opTok);

    if (opTok.kind === 'op') {
      this.next();
      const op = opTok.text as CompareOp;
      const ordered = op !== '=' && op !== '!=';
      if (kind === 'array') throw this.misuse(opTok, field, 'use "contains" or "not contains"');
      if (ordered && kind === 'boolean') throw this.misuse(opTok, field, 'use = or !=');
      if (ordered && kind === 'string' && !ORDERED_TEXT.has(field)) {
        throw this.misuse(opTok, field, '<, <=, > and >= work on number fields and on created_at / updated_at');
      }
      const at = this.lx.peek();
      const value = this.value(field, !ordered);
      return { type: 'compare', field, op, value: ORDERED_TEXT.has(field) ? storedTime(field, String(value), at) : value };
    }
    if (opTok.kind !== 'word') throw opError();
    const word = opTok.text.toLowerCase();

    if (word === 'is') {
      this.next();
      const negated = isWord(this.lx.peek(), 'not');
      if (negated) this.next();
      const n = this.lx.peek();
      if (!isWord(n, 'null')) throw this.expected(negated ? '"null"' : '"null" or "not null"', n);
      this.next();
      return { type: 'null', field, negated };
    }

    let negated = false;
    if (word === 'not') {
      this.next();
      negated = true;
    } else if (word !== 'in' && word !== 'contains') {
      throw opError();
    }
    const kw = this.lx.peek();
    if (isWord(kw, 'in')) {
      this.next();
      if (kind === 'array') throw this.misuse(kw, field, 'use "contains" or "not contains"');
      if (kind === 'boolean') throw this.misuse(kw, field, 'use = or !=');
      return { type: 'in', field, negated, values: this.list(field) };
    }
    if (isWord(kw, 'contains')) {
      this.next();
      if (kind !== 'array' && kind !== 'string') {
        throw this.misuse(kw, field, '"contains" works on list and text fields');
      }
      // A list holds whole labels, so its vocabulary applies; text is searched for any substring.
      return { type: 'contains', field, negated, value: String(this.value(field, kind === 'array')) };
    }
    throw this.expected('"in" or "contains"', kw);
  }

  private misuse(opTok: Token, field: SessionField, advice: string): FilterError {
    const kind = KIND_NAMES[SESSION_FIELD_KINDS[field]];
    return new FilterError(
      `operator "${opTok.text}" at position ${opTok.pos} cannot be used on the ${kind} field "${field}": ${advice}`,
      opTok.pos,
    );
  }

  private list(field: SessionField): FilterValue[] {
    const open = this.lx.peek();
    if (open.kind !== 'lparen') throw this.expected('"(" to start the list of values', open);
    this.next();
    const values: FilterValue[] = [];
    for (;;) {
      const at = this.lx.peek();
      const value = this.value(field, true);
      // A time in a list means what it does after "=": the stored form, however it is written.
      values.push(ORDERED_TEXT.has(field) ? storedTime(field, String(value), at) : value);
      const t = this.lx.peek();
      if (t.kind === 'comma') {
        this.next();
        continue;
      }
      if (t.kind === 'rparen') {
        this.next();
        return values;
      }
      if (t.kind === 'eof') {
        throw new FilterError(
          `unclosed list "(" at position ${open.pos}: expected "," or ")" at position ${t.pos}, found the end of the filter`,
          t.pos,
        );
      }
      throw this.expected('"," or ")"', t);
    }
  }

  /** Reads one value and coerces it to the field's kind; `exact` enables the enum check. */
  private value(field: SessionField, exact: boolean): FilterValue {
    const t = this.lx.peek();
    if (t.kind !== 'word' && t.kind !== 'number' && t.kind !== 'string') throw this.expected('a value', t);
    if (isWord(t, 'and') || isWord(t, 'or')) throw this.expected('a value (quote "and" / "or" to match the word)', t);
    if (t.kind === 'word' && t.text.toLowerCase() === 'null') {
      throw new FilterError(
        `null is not a value at position ${t.pos}: use "${field} is null" or "${field} is not null" (quote "null" to match the text)`,
        t.pos,
      );
    }
    this.next();
    this.bareText = t.kind === 'word' && SESSION_FIELD_KINDS[field] === 'string' && !ENUMS[field] ? t : null;
    return coerceValue(t, field, exact, this.knownCountries);
  }
}

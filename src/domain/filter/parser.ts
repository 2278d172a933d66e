// Recursive-descent parser for the filter language (contract section 6). Type checks and value
// coercion happen here, so a saved view is refused at creation, never at match time.
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

import {
  CHANNELS,
  DEVICE_TYPES,
  ENGAGEMENT_LEVELS,
  RISK_LEVELS,
  SESSION_FIELDS,
  SESSION_FIELD_KINDS,
  type FieldKind,
  type SessionField,
} from '../session.js';
import { FilterError, Lexer, isNumberText, type Token } from './lexer.js';
import { RISK_LABELS } from '../risk.js';
import { RULE_ACTIONS } from '../rules.js';
import { wireTimestamp } from '../time.js';
import { isCountryCode } from '../country-codes.js';

export type CompareOp = '=' | '!=' | '<' | '<=' | '>' | '>=';
export type FilterValue = string | number | boolean;

/** Parsed filter. Values are already coerced to the field's kind. */
export type FilterNode =
  | { type: 'and'; children: FilterNode[] }
  | { type: 'or'; children: FilterNode[] }
  | { type: 'not'; child: FilterNode }
  | { type: 'compare'; field: SessionField; op: CompareOp; value: FilterValue }
  | { type: 'in'; field: SessionField; negated: boolean; values: FilterValue[] }
  | { type: 'contains'; field: SessionField; negated: boolean; value: string }
  | { type: 'null'; field: SessionField; negated: boolean };

/** Bounds that keep hostile input from exhausting the stack or SQLite's expression depth. */
export const MAX_FILTER_LENGTH = 4000;
export const MAX_FILTER_DEPTH = 32;

const OPERATORS = '=, !=, <, <=, >, >=, in, not in, contains, not contains, is null, is not null';
/** Text fields where `<`/`>` make sense: timestamps, given in the stored form, order as strings. */
const ORDERED_TEXT = new Set<SessionField>(['created_at', 'updated_at']);
/** Closed vocabularies: a typo here would silently match nothing, so it is refused instead. */
const ENUMS: Partial<Record<SessionField, readonly string[]>> = {
  risk_level: RISK_LEVELS,
  engagement_level: ENGAGEMENT_LEVELS,
  channel: CHANNELS,
  device_type: DEVICE_TYPES,
  // `actions contains blocked` (the outcome's word, not the action's) would never match.
  risks: RISK_LABELS,
  actions: RULE_ACTIONS,
};
const ENUM_ITEM: Partial<Record<SessionField, string>> = { risks: 'risk', actions: 'action' };
const KIND_NAMES: Record<FieldKind, string> = {
  string: 'text',
  number: 'number',
  boolean: 'true/false',
  array: 'list',
};
const FIELD_BY_LOWER = new Map<string, SessionField>(SESSION_FIELDS.map((f) => [f, f]));

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

function describe(t: Token): string {
  if (t.kind === 'eof') return 'the end of the filter';
  const text = t.text.length > 30 ? `${t.text.slice(0, 30)}…` : t.text;
  return t.kind === 'string' ? text : `"${text}"`;
}

const isWord = (t: Token, kw: string) => t.kind === 'word' && t.text.toLowerCase() === kw;

class Parser {
  private readonly lx: Lexer;
  private prev: Token | null = null;
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
    return new FilterError(`expected ${what}${after} at position ${t.pos}, found ${describe(t)}`, t.pos);
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
      return { type: 'compare', field, op, value: ORDERED_TEXT.has(field) ? this.time(field, String(value), at) : value };
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

  /** A time compared with created_at / updated_at, in their stored form (text comparison is then time order). */
  private time(field: SessionField, raw: string, t: Token): string {
    const stored = wireTimestamp(raw);
    if (stored !== null) return stored;
    throw new FilterError(
      `expected a time for "${field}" at position ${t.pos}, like 2026-11-26 or "2026-11-26 10:00" (UTC, or with an offset such as +02:00), found ${describe(t)}`,
      t.pos,
    );
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
      values.push(this.value(field, true));
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
    const raw = t.kind === 'string' ? t.value : t.text;
    const kind = SESSION_FIELD_KINDS[field];
    if (kind === 'number') {
      if (isNumberText(raw.trim())) return Number(raw.trim());
      throw new FilterError(`expected a number for "${field}" at position ${t.pos}, found ${describe(t)}`, t.pos);
    }
    if (kind === 'boolean') {
      const b = raw.toLowerCase();
      if (b === 'true' || b === 'false') return b === 'true';
      throw new FilterError(`expected true or false for "${field}" at position ${t.pos}, found ${describe(t)}`, t.pos);
    }
    const allowed = ENUMS[field];
    if (exact && allowed && !allowed.includes(raw)) {
      const hint = suggest(raw.toLowerCase(), allowed);
      throw new FilterError(`unknown ${ENUM_ITEM[field] ?? field} "${raw}" at position ${t.pos}: expected one of ${allowed.join(', ')}${hint ? ` (did you mean "${hint}"?)` : ''}`, t.pos);
    }
    if (field !== 'country_code') return raw;
    if (exact && this.knownCountries && !isCountryCode(raw)) throw new FilterError(`unknown country code "${raw}" at position ${t.pos}: expected an ISO 3166-1 alpha-2 code, e.g. DE`, t.pos);
    // Sessions hold country codes in upper case (DE); "de" is the same country, not one no visitor has.
    return raw.toUpperCase();
  }
}

/** Closest candidate by edit distance, or one that contains / is contained in the input. */
export function suggest(input: string, candidates: readonly string[]): string | null {
  if (input.length > 64) return null; // not worth the quadratic distance on hostile input
  let best: string | null = null;
  let bestD = Infinity;
  for (const c of candidates) {
    const d = distance(input, c);
    if (d < bestD) [best, bestD] = [c, d];
  }
  if (best && bestD <= Math.max(2, Math.floor(input.length / 4))) return best;
  if (input.length >= 3) return candidates.find((c) => c.includes(input) || input.includes(c)) ?? null;
  return null;
}

function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length];
}

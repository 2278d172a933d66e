// In-memory evaluation of a parsed filter; src/store/session-filter-sql.ts must agree with it exactly.
//
// Null semantics (two-valued, no SQL "unknown"): a null field never satisfies =, <, <=, >, >=, in or
// contains; every negative operator is the exact negation of its positive one, so a null field DOES
// satisfy != , not in and not contains (like SQL "IS DISTINCT FROM"), and `not (...)` simply flips
// true/false. `is null` / `is not null` test for null (array fields are never null).
// Text comparisons are case-sensitive and ordered by code point (SQLite's BINARY collation).

import type { Session } from '../session.js';
import type { FilterNode, FilterValue } from './node.js';

/** What a filter reads: a session, or a record shaped like one (a check without a session: no id, site or times). */
type Unset = 'session_id' | 'site_id' | 'site_name' | 'created_at' | 'updated_at';
export type FilterSubject = Omit<Session, Unset> & { [K in Unset]: string | null };

export function matchesFilter(node: FilterNode, session: FilterSubject): boolean {
  switch (node.type) {
    case 'and':
      return node.children.every((c) => matchesFilter(c, session));
    case 'or':
      return node.children.some((c) => matchesFilter(c, session));
    case 'not':
      return !matchesFilter(node.child, session);
    case 'null':
      return (fieldOf(session, node.field) == null) !== node.negated;
    case 'in': {
      const v = fieldOf(session, node.field);
      return (v != null && node.values.some((x) => x === v)) !== node.negated;
    }
    case 'contains': {
      const v = fieldOf(session, node.field);
      const hit = Array.isArray(v) ? v.includes(node.value) : typeof v === 'string' && v.includes(node.value);
      return hit !== node.negated;
    }
    case 'compare': {
      const v = fieldOf(session, node.field);
      if (node.op === '=') return v != null && v === node.value;
      if (node.op === '!=') return !(v != null && v === node.value);
      const c = order(v, node.value);
      if (c === null) return false;
      switch (node.op) {
        case '<':
          return c < 0;
        case '<=':
          return c <= 0;
        case '>':
          return c > 0;
        case '>=':
          return c >= 0;
      }
    }
  }
  // Exhaustive above; a hand-built node with an unknown type matches nothing.
  return false;
}

function fieldOf(session: FilterSubject, field: string): unknown {
  return (session as unknown as Record<string, unknown>)[field];
}

/** Sign of a-b for same-typed numbers or strings; null when not comparable (incl. null field). */
function order(a: unknown, b: FilterValue): number | null {
  if (typeof a === 'number' && typeof b === 'number') return a === b ? 0 : a < b ? -1 : 1;
  if (typeof a === 'string' && typeof b === 'string') return compareCodePoints(a, b);
  return null;
}

/** JS `<` on strings compares UTF-16 units; SQLite compares UTF-8 bytes, i.e. code points. */
function compareCodePoints(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(j)!;
    if (x !== y) return x < y ? -1 : 1;
    i += x > 0xffff ? 2 : 1;
    j += y > 0xffff ? 2 : 1;
  }
  return i < a.length ? 1 : j < b.length ? -1 : 0;
}

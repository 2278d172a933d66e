// Coerces a value token to its field's kind, so a saved view is refused at creation, never at match time.
import { SESSION_FIELD_KINDS, type SessionField } from '../session.js';
import { wireTimestamp } from '../time.js';
import { isCountryCode } from '../country-codes.js';
import { FilterError, describe, isNumberText, type Token } from './lexer.js';
import { ENUMS, ENUM_ITEM } from './fields.js';
import { suggest } from './suggest.js';
import type { FilterValue } from './node.js';

/** `exact` enables the enum check; `knownCountries` makes country_code need a real country. */
export function coerceValue(t: Token, field: SessionField, exact: boolean, knownCountries: boolean): FilterValue {
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
  if (exact && knownCountries && !isCountryCode(raw)) throw new FilterError(`unknown country code "${raw}" at position ${t.pos}: expected an ISO 3166-1 alpha-2 code, e.g. DE`, t.pos);
  // Sessions hold country codes in upper case (DE); "de" is the same country, not one no visitor has.
  return raw.toUpperCase();
}

/** A time compared with created_at / updated_at, in their stored form (text comparison is then time order). */
export function storedTime(field: SessionField, raw: string, t: Token): string {
  const stored = wireTimestamp(raw);
  if (stored !== null) return stored;
  throw new FilterError(
    `expected a time for "${field}" at position ${t.pos}, like 2026-11-26 or "2026-11-26 10:00" (UTC, or with an offset such as +02:00), found ${describe(t)}`,
    t.pos,
  );
}

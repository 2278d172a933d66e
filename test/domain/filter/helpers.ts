// Shared by the filter tests: a Session with every field null but the required ones, and a parse
// that must be refused.
import { expect } from 'vitest';
import { FilterError, parseFilter } from '../../../src/domain/filter/index.js';
import { SESSION_FIELDS, type Session } from '../../../src/domain/session.js';

export function session(over: Partial<Session> = {}): Session {
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
export function fail(src: string): FilterError {
  try {
    parseFilter(src);
  } catch (e) {
    expect(e).toBeInstanceOf(FilterError);
    return e as FilterError;
  }
  throw new Error(`expected ${JSON.stringify(src)} to be refused`);
}

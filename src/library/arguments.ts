// The helpers' own arguments: a wrong one is a TypeError naming the helper and the option, and
// what to pass, before anything is sent (a slip would otherwise read as no filter: every event).
import { EVENT_STATUSES } from '../domain/webhooks.js';
import { suggest } from '../domain/filter/suggest.js';

const STATUSES: readonly string[] = EVENT_STATUSES;

/** A status no event can have would filter everything out, or wait out its timeout: say so at once. */
export function checkStatus(helper: string, status: string | undefined): void {
  if (status !== undefined && !STATUSES.includes(status)) throw new TypeError(`${helper}: status: expected one of ${STATUSES.join(', ')}, got ${JSON.stringify(status)}`);
}

/** An object literal (or one with no prototype, or of another realm): not a Map, a Date, a class's instance. */
export function isPlain(v: unknown): v is object {
  if (typeof v !== 'object' || v === null) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

/** A wrong argument as a message shows it: a string quoted, an array or object by its kind (a Map, a Date). */
export function got(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  // A helper's promise passed on where its answer was meant: `sessions.get(emu.sessions.create(...))`.
  if (isThenable(v)) return 'a Promise (an await left out?)';
  if (Array.isArray(v)) return 'an array';
  if (typeof v !== 'object' || v === null) return String(v);
  const kind: unknown = isPlain(v) ? undefined : (v as { constructor?: { name?: unknown } }).constructor?.name;
  if (typeof kind !== 'string' || kind === '' || kind === 'Object') return 'an object';
  // "an Options", but "a URL".
  return `${/^[aeiou]/i.test(kind) && !/^U[A-Z]/.test(kind) ? 'an' : 'a'} ${kind}`;
}

function isThenable(v: unknown): boolean {
  return typeof v === 'object' && v !== null && typeof (v as { then?: unknown }).then === 'function';
}

/** For an object whose fields would not be read (a Map, a Date): what to pass instead. */
export function plainObjectHint(v: unknown): string {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !isThenable(v) ? ': pass a plain object' : '';
}

/** An id that is no id (undefined from `session.id`, an empty string) would read as another path or id. */
function checkId(label: string, what: string, v: unknown): void {
  if (typeof v === 'string' && v.trim() !== '') return;
  // The whole session (or rule) for its id: say which of its fields to pass.
  const field = `${what}_id`;
  const own = typeof v === 'object' && v !== null && typeof (v as Record<string, unknown>)[field] === 'string' ? `: pass its ${field} (${JSON.stringify((v as Record<string, string>)[field])})` : '';
  throw new TypeError(`${label}: expected a ${what} id, got ${got(v)}${own}`);
}

/** An empty filter id would read as no filter at all: every event of the site, another session's included. */
export function checkIds(helper: string, o: { sessionId?: string; webhookId?: string }): void {
  if (o.sessionId !== undefined) checkId(`${helper}: sessionId`, 'session', o.sessionId);
  if (o.webhookId !== undefined) checkId(`${helper}: webhookId`, 'webhook', o.webhookId);
}

/**
 * A filter left out or null is none; a bare id (`waitFor(session.session_id)`) would read as no
 * filter, every event of the site: refused, saying what to pass. `alsoTaken`: the other helper's
 * options, accepted and not read, as one options object often serves both.
 */
export function filterArg<T extends object>(label: string, noun: string, keys: readonly string[], given: T | null | undefined, alsoTaken: readonly string[] = []): T {
  const v: unknown = given;
  const takes = `${noun} ({ ${keys.join(', ')} })`;
  if (v === undefined || v === null) return {} as T;
  if (isPlain(v)) {
    // A misspelt option (sesionId, or session_id as the API writes it) would be no filter at all:
    // every event of the site. An undefined value is none, as for the other options objects.
    for (const [k, value] of Object.entries(v)) {
      if (keys.includes(k) || alsoTaken.includes(k) || value === undefined) continue;
      const meant = keys.find((known) => known.toLowerCase() === k.replace(/_/g, '').toLowerCase()) ?? suggest(k, keys);
      throw new TypeError(`${label}: unknown option ${JSON.stringify(k)}${meant ? ` (did you mean ${meant}?)` : ''}; it takes { ${keys.join(', ')} }`);
    }
    return v as T;
  }
  // A Map's entries, a class's getters: no option would be read, so every event of the site.
  const hint = typeof v === 'string' ? `: pass { ${v.startsWith('wh_') ? 'webhookId' : 'sessionId'}: ${JSON.stringify(v)} }` : plainObjectHint(v);
  throw new TypeError(`${label}: expected ${takes}, got ${got(v)}${hint}`);
}

/**
 * An object JSON sends as its own fields: a plain one, or a class's instance (a DTO) with no
 * `toJSON` of its own. Not a Map or Set (sent as "{}"), a Date or URL (a string), an array.
 */
function sendsItsFields(v: object): boolean {
  if (isPlain(v)) return true;
  if (Array.isArray(v) || ArrayBuffer.isView(v) || typeof (v as { toJSON?: unknown }).toJSON === 'function') return false;
  const kinds: Function[] = [Map, Set, WeakMap, WeakSet, RegExp, Promise, Error];
  return !kinds.some((kind) => (v as object) instanceof kind);
}

/**
 * A body given as a bare string (or an array, a Map) would be no fields of its own (check spreads it into
 * fields "0", "1", ...) or the API's "name: required" / "the body must be a JSON object": refused,
 * saying what to pass (`pass`: the fields a string was likely meant as). Left out or null is the
 * caller's (the API names what is missing).
 */
export function fieldsArg(label: string, takes: string, v: unknown, pass?: (s: string) => string): void {
  if (v === undefined || v === null) return;
  if (typeof v === 'object' && sendsItsFields(v)) {
    const at = nonFinite(v, '');
    if (at) throw new TypeError(`${label}: ${at.path}: expected a number, got ${at.value} (JSON would send null)`);
    return;
  }
  // A Map or a Date would go as "{}" or a string: none of the fields it holds.
  const hint = typeof v === 'string' && pass ? `: pass { ${pass(v)} }` : plainObjectHint(v);
  throw new TypeError(`${label}: expected ${takes}, got ${got(v)}${hint}`);
}

/** The first NaN or ±Infinity among the fields (JSON.stringify sends it as null: unset, or refused as null). */
function nonFinite(v: unknown, path: string, depth = 0): { path: string; value: number } | null {
  if (typeof v === 'number') return Number.isFinite(v) ? null : { path, value: v };
  if (typeof v !== 'object' || v === null || depth > 8) return null;
  for (const [k, x] of Object.entries(v)) {
    const found = nonFinite(x, Array.isArray(v) ? `${path}[${k}]` : path ? `${path}.${k}` : k, depth + 1);
    if (found) return found;
  }
  return null;
}

/**
 * A second argument (a limit after a filter, a timeout after waitFor's options) would be ignored:
 * refused, saying where it goes (`hint`). Undefined, an optional parameter passed on, is none.
 */
export function extraArg(helper: string, more: unknown[], hint: (extra: unknown) => string = () => ''): TypeError | null {
  const extra = more.find((v) => v !== undefined);
  return extra === undefined ? null : new TypeError(`${helper}: takes one argument, got a second: ${got(extra)}${hint(extra)}`);
}

export function idArg(helper: string, name: string, what: string, v: unknown): string {
  checkId(`${helper}: ${name}`, what, v);
  return v as string;
}

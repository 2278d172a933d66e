// A memo for the pure per-field checks: clients check the same values again and again (test values
// in CI, a visitor retrying a form), and parsing is most of a check's own time. Recently used last
// (see `added`), the oldest dropped when full; long inputs are not kept. Results are flat objects,
// frozen, so no caller can change what the next one gets (a copy per call cost more than the look-up).
// `withBytes` also gives the result's JSON as UTF-8 bytes, made once per entry: serialising a
// check's sections was a fifth of a repeated check, and the answer is assembled from these bytes.
import { addBounded } from '../domain/bounded-map.js';

const MAX_KEY = 1000;

export interface Memoized<A extends unknown[], R extends object> {
  (...args: A): Readonly<R>;
  /** The result and JSON.stringify of it as UTF-8 (the bytes kept with the entry). */
  withBytes(...args: A): { value: Readonly<R>; bytes: Buffer };
}

interface Entry<R> {
  result: Readonly<R>;
  bytes: Buffer | undefined;
  /** `added` when the entry was last moved to the end. */
  movedAt: number;
}

export function memoized<A extends unknown[], R extends object>(size: number, keyOf: (...args: A) => string, fn: (...args: A) => R): Memoized<A, R> {
  const memo = new Map<string, Entry<R>>();
  // Entries added so far. A hit moves its entry to the end only once a quarter of the memo's size
  // has been added since its last move (a delete and a set per hit were most of a hit's cost): an
  // entry takes `size` additions to reach the front, so one hit at least every 3/4 of that stays.
  let added = 0;
  const entry = (args: A): Entry<R> => {
    const key = keyOf(...args);
    if (key.length > MAX_KEY) return { result: Object.freeze(fn(...args)), bytes: undefined, movedAt: 0 };
    let e = memo.get(key);
    if (e) {
      if (added - e.movedAt > size >> 2) {
        memo.delete(key);
        memo.set(key, e);
        e.movedAt = added;
      }
      return e;
    }
    e = { result: Object.freeze(fn(...args)), bytes: undefined, movedAt: ++added };
    addBounded(memo, key, e, size);
    return e;
  };
  const f = ((...args: A): Readonly<R> => entry(args).result) as Memoized<A, R>;
  f.withBytes = (...args: A) => {
    const e = entry(args);
    return { value: e.result, bytes: (e.bytes ??= Buffer.from(JSON.stringify(e.result))) };
  };
  return f;
}

/**
 * A memo key of a few optional strings, cheaper than JSON.stringify of them: joined by a separator
 * no part holds, with a marker for absent. A part holding a separator, or not a string, gets the
 * JSON form, which starts with a character the joined form never holds, so the two never meet.
 */
export function memoKey(...parts: unknown[]): string {
  let key = '';
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i];
    if (p == null) key += '\u0001\u0000';
    else if (typeof p === 'string' && !/[\u0000-\u0002]/.test(p)) key += `${p}\u0000`;
    else return `\u0002${JSON.stringify(parts.map((x) => (x === undefined ? null : x)))}`;
  }
  return key;
}

// A memo for the pure per-field checks: clients check the same values again and again (test values
// in CI, a visitor retrying a form), and parsing is most of a check's own time. Most recently used
// last, the oldest dropped when full; long inputs are not kept. Results are flat objects, copied
// out, so no caller can change what the next one gets.

const MAX_KEY = 1000;

export function memoized<A extends unknown[], R extends object>(size: number, keyOf: (...args: A) => string, fn: (...args: A) => R): (...args: A) => R {
  const memo = new Map<string, R>();
  return (...args: A): R => {
    const key = keyOf(...args);
    if (key.length > MAX_KEY) return fn(...args);
    let result = memo.get(key);
    if (result) {
      memo.delete(key); // re-inserted below: most recently used last
    } else {
      result = fn(...args);
      if (memo.size >= size) memo.delete(memo.keys().next().value!);
    }
    memo.set(key, result);
    return { ...result };
  };
}

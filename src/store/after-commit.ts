// What must wait for a COMMIT (an event on the stream: subscribers must never hear of a row that a
// rollback takes back). Each transaction, savepoint or write of a group commit is one unit: what it
// defers goes to the unit around it when it ends well, and is dropped when it throws.

export interface AfterCommit {
  /** Runs fn once the units open now have all ended well (the COMMIT done); at once outside any. */
  defer(fn: () => void): void;
  /** Runs body as one unit (see above); fn's deferred work runs when it was the outermost. */
  unit<T>(body: () => T): T;
}

export function createAfterCommit(): AfterCommit {
  const open: Array<Array<() => void>> = [];
  return {
    defer(fn) {
      if (open.length === 0) fn();
      else open[open.length - 1].push(fn);
    },
    unit<T>(body: () => T): T {
      open.push([]);
      let result: T;
      try {
        result = body();
      } catch (error) {
        open.pop();
        throw error;
      }
      const mine = open.pop()!;
      if (open.length > 0) open[open.length - 1].push(...mine);
      else for (const fn of mine) fn();
      return result;
    },
  };
}

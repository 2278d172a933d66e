// Group commit for the direct path's writes. Every write request whose body arrived in the same
// turn of the event loop runs inside one SQLite transaction, and all their answers go out after the
// COMMIT. A job must write atomically on its own: one statement (SQLite undoes a failed statement
// whole), or several inside its own store.tx (a savepoint), so one request's error leaves none of
// its writes behind. The visitor check and the custom event do; a savepoint per request besides
// cost ~7 µs, more than their single write saves by sharing the COMMIT. A 2xx
// still means "committed"; the commit's fixed cost (WAL frames, locking) is paid once per turn
// instead of once per request. Under light load a turn holds one request and nothing changes.

export type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

interface Job {
  run: () => unknown;
  reply: (outcome: Outcome) => void;
}

/** `tx` runs fn in one write transaction (BEGIN IMMEDIATE … COMMIT); `inTransaction` tells whether it is still open. */
export function createGroupCommit({ tx, inTransaction }: { tx: <T>(fn: () => T) => T; inTransaction: () => boolean }) {
  let pending: Job[] = [];
  let scheduled = false;

  function drain(): void {
    scheduled = false;
    const jobs = pending;
    pending = [];
    const outcomes: Outcome[] = new Array(jobs.length);
    try {
      tx(() => {
        for (let i = 0; i < jobs.length; i++) {
          try {
            outcomes[i] = { ok: true, value: jobs[i].run() };
          } catch (error) {
            outcomes[i] = { ok: false, error };
            // SQLite rolled the whole transaction back (disk full, I/O error): the rest would run
            // outside it, each committed at once though answered as failed below.
            if (!inTransaction()) throw error;
          }
        }
      });
    } catch (error) {
      // BEGIN or COMMIT failed: nothing of this turn was written, so no request may say it was.
      for (let i = 0; i < jobs.length; i++) if (!outcomes[i] || outcomes[i].ok) outcomes[i] = { ok: false, error };
    }
    for (let i = 0; i < jobs.length; i++) jobs[i].reply(outcomes[i]);
  }

  return {
    /** Runs `run` in this turn's transaction; `reply` gets its outcome once that has committed. */
    add(run: () => unknown, reply: (outcome: Outcome) => void): void {
      pending.push({ run, reply });
      if (!scheduled) {
        scheduled = true;
        setImmediate(drain);
      }
    },
  };
}

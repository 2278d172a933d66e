// Group commit for the direct path's writes. Every write request whose body arrived in the same
// turn of the event loop runs inside one SQLite transaction, each in its own savepoint (one
// request's error undoes only its own writes), and all their answers go out after the COMMIT. A 2xx
// still means "committed"; the commit's fixed cost (WAL frames, locking) is paid once per turn
// instead of once per request. Under light load a turn holds one request and nothing changes.

export type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

interface Job {
  run: () => unknown;
  reply: (outcome: Outcome) => void;
}

/** `tx` runs fn in a write transaction, or in a savepoint when one is already open. */
export function createGroupCommit(tx: <T>(fn: () => T) => T) {
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
            outcomes[i] = { ok: true, value: tx(jobs[i].run) };
          } catch (error) {
            outcomes[i] = { ok: false, error };
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

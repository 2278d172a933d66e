// Group commit for the public API's writes (a custom event, a visitor check). Every write that
// reaches the queue in the same turn of the event loop runs inside one SQLite transaction, and each
// caller's promise settles once that transaction has committed: a 2xx still means committed. The
// gain is the commit's fixed cost (WAL frames, locking), paid once per turn instead of once per
// request: pages several writes touch go to the WAL once. Under light load a turn holds one write
// and nothing changes. What a write announces on the event stream goes out after that COMMIT too,
// and nothing of a write that failed (each write is one unit: store.unit).
//
// A write must be atomic on its own: one statement (SQLite undoes a failed statement whole), or
// several inside its own store.tx (a savepoint), so one request's error leaves none of its writes.
import { realTimers } from '../domain/timers.js';


/** What the queue needs of the store: one write transaction, and whether it is still open. */
export interface Transactions {
  /** Runs fn in one write transaction (BEGIN IMMEDIATE … COMMIT). */
  tx<T>(fn: () => T): T;
  inTransaction(): boolean;
  /** Runs fn as one unit of the open transaction: what it announced is dropped when it throws. */
  unit<T>(fn: () => T): T;
}

export interface WriteQueue {
  /** Runs `write` in this turn's transaction; resolves with its value once that has committed. */
  run<T>(write: () => T): Promise<T>;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

interface Job {
  write: () => unknown;
  settle: (outcome: Outcome) => void;
}

export function createWriteQueue({ tx, inTransaction, unit }: Transactions): WriteQueue {
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
            outcomes[i] = { ok: true, value: unit(jobs[i].write) };
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
    for (let i = 0; i < jobs.length; i++) jobs[i].settle(outcomes[i]);
  }

  return {
    run<T>(write: () => T): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        pending.push({ write, settle: (o) => (o.ok ? resolve(o.value as T) : reject(o.error)) });
        if (!scheduled) {
          scheduled = true;
          realTimers.setImmediate(drain);
        }
      });
    },
  };
}

/** No grouping: each write commits on its own (its service opens the transaction). */
export const eachOnItsOwn: WriteQueue = { run: async (write) => write() };

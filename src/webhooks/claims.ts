// Claims across processes. Several `vtr serve` on one database file each run a dispatcher; an
// attempt is made only by the dispatcher that claimed its event, in the same write transaction that
// saw it still due, and the claim goes with the attempt's recorded result. Notification mails are
// claimed the same way (their own table) by the notifier that sends them. A holder that died loses
// its claims at once (its pid is gone from this host, or this process reuses its pid), so a restart
// after a crash redelivers without waiting; any other holder loses them at a deadline past its timeout.
import { hostname } from 'node:os';
import type { Clock } from '../domain/clock.js';
import { randomId } from '../domain/ids.js';
import type { Store } from '../store/index.js';
import type { ClaimHolder, ClaimRecord, ClaimTable } from '../store/webhook-claims.js';

/** Beyond the attempt's own timeout: the wait for the write lock to record its result, and slack. */
const GRACE_MS = 30_000;

/** Claim holders alive in this process (tests run several emulators in one process). */
const liveHere = new Set<string>();

function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // exists, someone else's
  }
}

/** `table`: what is claimed; `timeoutMs`: how long one piece of work (an attempt, a send) may take. */
export function createClaims(store: Store, table: ClaimTable, clock: Clock, timeoutMs: number) {
  const host = hostname();
  const me: ClaimHolder = { owner: `${host}:${process.pid}:${randomId(8)}`, host, pid: process.pid };
  liveHere.add(me.owner);

  const lost = (c: ClaimRecord): boolean =>
    c.owner === me.owner ||
    c.expires_ms <= clock.realNow() ||
    (c.host === me.host && (c.pid === me.pid ? !liveHere.has(c.owner) : !processAlive(c.pid)));

  return {
    owner: me.owner,
    /**
     * Of these (events, notifications), the ones this holder may work on now, claimed in one write
     * transaction: those `wanted` still accepts under the lock (re-read, as another process may have
     * recorded a result since) and no other live holder holds.
     */
    take(ids: string[], wanted: (id: string) => boolean): { taken: string[]; heldElsewhere: number } {
      let heldElsewhere = 0;
      const taken = store.tx(() =>
        ids.filter((id) => {
          const c = table.get(id);
          if (c && !lost(c)) return (heldElsewhere++, false);
          if (!wanted(id)) return false;
          return table.put(id, { ...me, expires_ms: clock.realNow() + timeoutMs + GRACE_MS });
        }),
      );
      return { taken, heldElsewhere };
    },
    /** Gives the claim up; inside the transaction that records the result. */
    release(id: string): void {
      table.release(id, me.owner);
    },
    /** This holder stops: whatever it still holds goes. */
    close(): void {
      liveHere.delete(me.owner);
      try {
        table.releaseAll(me.owner);
      } catch {
        // The database is already closed or locked: the claims lapse on their own (dead pid, deadline).
      }
    },
  };
}
export type Claims = ReturnType<typeof createClaims>;

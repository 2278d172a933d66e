// Claims across processes. Several `vtr serve` on one database file each run a dispatcher; an
// attempt is made only by the dispatcher that claimed its event, in the same write transaction that
// saw it still due, and the claim goes with the attempt's recorded result. A holder that died loses
// its claims at once (its pid is gone from this host, or this process reuses its pid), so a restart
// after a crash redelivers without waiting; any other holder loses them at a deadline past its timeout.
import { hostname } from 'node:os';
import type { Clock } from '../domain/clock.js';
import { randomId } from '../domain/ids.js';
import type { Store } from '../store/index.js';
import type { ClaimHolder, ClaimRecord } from '../store/webhook-claims.js';

/** Beyond the attempt's own timeout: the wait for the write lock to record its result, and slack. */
const GRACE_MS = 30_000;

/** Dispatchers alive in this process (tests run several emulators in one process). */
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

export function createClaims(store: Store, clock: Clock, timeoutMs: number) {
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
     * Of these events, the ones this dispatcher may attempt now, claimed in one write transaction:
     * those `wanted` still accepts under the lock (re-read, as another process may have recorded an
     * attempt since) and no other live dispatcher holds.
     */
    take(eventIds: string[], wanted: (eventId: string) => boolean): { taken: string[]; heldElsewhere: number } {
      let heldElsewhere = 0;
      const taken = store.tx(() =>
        eventIds.filter((id) => {
          const c = store.webhookClaims.get(id);
          if (c && !lost(c)) return (heldElsewhere++, false);
          if (!wanted(id)) return false;
          return store.webhookClaims.put({ webhook_event_id: id, ...me, expires_ms: clock.realNow() + timeoutMs + GRACE_MS });
        }),
      );
      return { taken, heldElsewhere };
    },
    /** Gives the claim up; inside the transaction that records the attempt. */
    release(eventId: string): void {
      store.webhookClaims.release(eventId, me.owner);
    },
    /** This dispatcher stops: whatever it still holds goes. */
    close(): void {
      liveHere.delete(me.owner);
      try {
        store.webhookClaims.releaseAll(me.owner);
      } catch {
        // The database is already closed or locked: the claims lapse on their own (dead pid, deadline).
      }
    },
  };
}
export type Claims = ReturnType<typeof createClaims>;

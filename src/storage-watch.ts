// Watches the store's write health: the fault log's lines, a cheap probe write every few seconds
// while writes fail (so health recovers without user traffic), and a nudge to whatever waited.
import type { Store } from './store/index.js';
import type { FaultLog } from './logs/fault-log.js';
import { realTimers } from './domain/timers.js';

export const PROBE_EVERY_MS = 5_000;

export function watchStorage(opts: {
  store: Store;
  log: FaultLog;
  /** Runs once writes work again (the webhook dispatcher resumes at once). */
  onRecovered: () => void;
  /** Request-log entries dropped so far, for the recovery line. */
  dropped?: () => number;
  probeEveryMs?: number;
}): { stop(): void } {
  const { store, log } = opts;
  let probe: ReturnType<typeof setInterval> | null = null;
  let droppedBefore = 0;
  const stopProbe = () => {
    if (probe) realTimers.clearInterval(probe);
    probe = null;
  };
  const off = store.faults.listen((fault) => {
    if (fault) {
      log.fault(fault);
      // A probe write proves nothing about a damaged file: that lasts until vtr serves another.
      if (probe || fault.kind === 'corrupt') return;
      droppedBefore = opts.dropped?.() ?? 0;
      probe = realTimers.setInterval(() => {
        try {
          if (store.db.open && !store.inTransaction()) store.probeWrite();
        } catch {
          // still failing: counted by the fault log
        }
      }, opts.probeEveryMs ?? PROBE_EVERY_MS);
      probe.unref();
      return;
    }
    stopProbe();
    const lost = (opts.dropped?.() ?? 0) - droppedBefore;
    log.recovered(lost > 0 ? `; ${lost} request-log entries dropped` : '');
    opts.onRecovered();
  });
  return {
    stop() {
      off();
      stopProbe();
      log.stop();
    },
  };
}

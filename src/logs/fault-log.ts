// The server's fault lines on stderr: one line when writes start failing (the file and the cause),
// a count of the repeats at most every 10 s, one line when they work again. No stack traces for
// storage faults; an unexpected error prints its stack once per distinct error, then counts. A full
// disk used to get a stack trace per failed request (24 MB in 18 s), which filled the disk further.
// On a nearly full volume (or under a file-size limit) small writes still fit between refused large
// ones, so writes fail and work by turns every second: a refusal soon after a recovery continues the
// same fault, and its recovery is said once writes have held for a while, not at every turn.
// These lines are never silenced by -q: they are what an operator needs to act.
import type { StorageFault } from '../store/storage-faults.js';
import { realTimers } from '../domain/timers.js';

export const SUMMARY_EVERY_MS = 10_000;
/** A refusal this soon after writes worked again belongs to the same fault. */
export const RETURN_WITHIN_MS = 60_000;
/** After a fault came back, writes must work this long before the log says they work again. */
export const SETTLED_MS = 10_000;

export interface FaultLogDeps {
  /** One line, no newline. */
  write(line: string): void;
  /** Milliseconds; real time, not the emulator's (possibly manual) clock. */
  now(): number;
  summaryEveryMs?: number;
  /** The timer that says a recovery once it has held (default: the host's real one, unreferenced). */
  later?: (fn: () => void, ms: number) => () => void;
}

const WHAT: Record<StorageFault['kind'], (f: StorageFault) => string> = {
  full: (f) => `the disk is full (${f.sqliteCode}: ${f.cause}). Writing requests answer 507 insufficient_storage until space is freed on that volume; reads still work`,
  read_only: (f) => f.sqliteCode === 'SQLITE_READONLY_DBMOVED'
    ? `the database file was removed or replaced while vtr was running (${f.sqliteCode}); writes to the removed file would be lost, so writing requests answer 503 database_read_only. Restart vtr to open the file that is there now (or a new one); reads still work`
    : `the database cannot be written (${f.sqliteCode}: ${f.cause}). Writing requests answer 503 database_read_only; make the file, its directory and its -wal/-shm writable, then restart; reads still work`,
  corrupt: (f) => `the database file is damaged (${f.sqliteCode}: ${f.cause}). Requests that reach its damaged part answer 503 database_corrupt; stop vtr and serve another --db (a state export loads with --import); \`sqlite3 ${f.file} .recover\` may save the rows that can still be read`,
};

/** What fails: a damaged file fails reads too. */
const what = (f: StorageFault) => (f.kind === 'corrupt' ? 'request' : 'write');

const seconds = (ms: number) => `${Math.max(1, Math.round(ms / 1000))} s`;

const realLater = (fn: () => void, ms: number): (() => void) => {
  const t = realTimers.setTimeout(fn, ms);
  t.unref();
  return () => realTimers.clearTimeout(t);
};

interface Episode {
  fault: StorageFault;
  since: number;
  total: number;
  unsaid: number;
  saidAt: number;
  /** When writes last started working again; null while they fail. */
  workingSince: number | null;
  /** How often the fault came back after writes had worked again. */
  returns: number;
  /** Whether the last line said writes work again (a refusal after it must be said). */
  saidWorking: boolean;
}

export function createFaultLog({ write, now, summaryEveryMs = SUMMARY_EVERY_MS, later = realLater }: FaultLogDeps) {
  let active: Episode | null = null;
  let cancelPending: (() => void) | null = null;

  function summarise(t: number): void {
    if (!active || active.unsaid === 0) return;
    write(`vtr: ${active.unsaid} more ${what(active.fault)}(s) to ${active.fault.file} refused in the last ${seconds(t - active.saidAt)} (${active.fault.sqliteCode})`);
    active.unsaid = 0;
    active.saidAt = t;
  }

  function sayWorking(a: Episode, t: number, extra: string): void {
    summarise(t);
    const turns = a.returns ? `, failing again ${a.returns} time(s) after working for a moment` : '';
    write(`vtr: writes to ${a.fault.file} work again after ${seconds(t - a.since)} (${a.total} refused in all${turns}${extra})`);
    a.saidWorking = true;
  }

  function cancel(): void {
    cancelPending?.();
    cancelPending = null;
  }

  return {
    /** A write failed with this storage fault. */
    fault(fault: StorageFault): void {
      const t = now();
      const same = active && active.fault.kind === fault.kind && active.fault.file === fault.file ? active : null;
      if (same && (same.workingSince === null || t - same.workingSince < RETURN_WITHIN_MS)) {
        same.total++;
        if (same.workingSince !== null) {
          cancel();
          same.returns++;
          const worked = t - same.workingSince;
          same.workingSince = null;
          if (same.saidWorking) {
            summarise(t);
            write(`vtr: ${what(fault)}s to ${fault.file} are refused again ${seconds(worked)} after working (${fault.sqliteCode}): the space comes and goes (a nearly full volume, or a file-size limit such as ulimit -f). Refusals are counted every ${seconds(summaryEveryMs)}; a line says when writes have worked for ${seconds(SETTLED_MS)}`);
            same.saidWorking = false;
            same.saidAt = t;
            return;
          }
        }
        same.unsaid++;
        if (t - same.saidAt >= summaryEveryMs) summarise(t);
        return;
      }
      cancel();
      summarise(t);
      active = { fault, since: t, total: 1, unsaid: 0, saidAt: t, workingSince: null, returns: 0, saidWorking: false };
      write(`vtr: ${what(fault)}s to ${fault.file} are failing: ${WHAT[fault.kind](fault)}`);
    },
    /** A write succeeded after a fault. */
    recovered(extra = ''): void {
      const a = active;
      if (!a || a.workingSince !== null) return;
      const t = now();
      a.workingSince = t;
      // The first recovery is said at once; after the fault came back, once writes have held.
      if (a.returns === 0) return sayWorking(a, t, extra);
      cancel();
      cancelPending = later(() => {
        cancelPending = null;
        if (active === a && a.workingSince === t) sayWorking(a, now(), extra);
      }, SETTLED_MS);
    },
    /** Drops a recovery line still waiting (the server is closing). */
    stop: cancel,
  };
}
export type FaultLog = ReturnType<typeof createFaultLog>;

const MAX_KNOWN = 200;

/** Unexpected errors: the stack once per distinct error (message + top frame), then a count every 10 s. */
export function createUnexpectedErrorLog({ write, now, summaryEveryMs = SUMMARY_EVERY_MS }: FaultLogDeps) {
  const known = new Map<string, { unsaid: number; saidAt: number }>();
  return {
    report(err: unknown): void {
      const e = err instanceof Error ? err : new Error(String(err));
      const top = e.stack?.split('\n').find((l) => l.trimStart().startsWith('at ')) ?? '';
      const key = `${e.name}: ${e.message}\n${top}`;
      const t = now();
      const seen = known.get(key);
      if (!seen) {
        if (known.size >= MAX_KNOWN) known.delete(known.keys().next().value as string);
        known.set(key, { unsaid: 0, saidAt: t });
        write(`vtr: unexpected error (its stack is printed once; repeats are counted): ${e.stack ?? key}`);
        return;
      }
      seen.unsaid++;
      if (t - seen.saidAt >= summaryEveryMs) {
        write(`vtr: the unexpected error "${e.message.slice(0, 200)}" happened ${seen.unsaid} more time(s) in the last ${seconds(t - seen.saidAt)}`);
        seen.unsaid = 0;
        seen.saidAt = t;
      }
    },
  };
}

const stderrLine = (line: string) => void process.stderr.write(`${line}\n`);

/** The process's log of unexpected errors (the HTTP error handler's last resort). */
export const unexpectedErrors = createUnexpectedErrorLog({ write: stderrLine, now: () => Date.now() });

/** A fault log writing to stderr. */
export const stderrFaultLog = (): FaultLog => createFaultLog({ write: stderrLine, now: () => Date.now() });

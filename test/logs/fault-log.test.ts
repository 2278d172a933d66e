import { describe, expect, it } from 'vitest';
import { createFaultLog, createUnexpectedErrorLog } from '../../src/logs/fault-log.js';
import type { StorageFault } from '../../src/store/storage-faults.js';

function setup() {
  const lines: string[] = [];
  let t = 1_000_000;
  // A fake timer: runs when tick() passes its time.
  let timers: Array<{ at: number; fn: () => void }> = [];
  const later = (fn: () => void, ms: number) => {
    const timer = { at: t + ms, fn };
    timers.push(timer);
    return () => void (timers = timers.filter((x) => x !== timer));
  };
  const deps = { write: (l: string) => lines.push(l), now: () => t, later };
  const tick = (ms: number) => {
    t += ms;
    const due = timers.filter((x) => x.at <= t);
    timers = timers.filter((x) => x.at > t);
    for (const x of due) x.fn();
  };
  return { lines, deps, tick, pending: () => timers.length };
}

const full: StorageFault = { kind: 'full', sqliteCode: 'SQLITE_FULL', cause: 'database or disk is full', file: '/data/vtr.db' };
const readOnly: StorageFault = { kind: 'read_only', sqliteCode: 'SQLITE_READONLY', cause: 'attempt to write a readonly database', file: '/data/vtr.db' };

describe('fault log', () => {
  it('fault log: one line per fault naming file and cause, repeats summarised at most every 10 s, one recovery line', () => {
    const { lines, deps, tick } = setup();
    const log = createFaultLog(deps);
    log.fault(full);
    for (let i = 0; i < 1000; i++) log.fault(full);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('/data/vtr.db');
    expect(lines[0]).toContain('SQLITE_FULL');
    expect(lines[0]).toContain('507');
    tick(10_000);
    log.fault(full);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^vtr: 1001 more write\(s\) to \/data\/vtr\.db refused in the last 10 s/);
    tick(3_000);
    log.fault(full);
    expect(lines).toHaveLength(2);
    log.recovered();
    expect(lines).toHaveLength(4);
    expect(lines[2]).toMatch(/1 more write/);
    expect(lines[3]).toBe('vtr: writes to /data/vtr.db work again after 13 s (1003 refused in all)');
    log.recovered();
    expect(lines).toHaveLength(4);
  });

  it('fault log: writes failing and working by turns each second are one fault: one line when it comes back, the recovery said once writes held 10 s', () => {
    const { lines, deps, tick } = setup();
    const log = createFaultLog(deps);
    log.fault(full);
    tick(1_000);
    log.recovered();
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe('vtr: writes to /data/vtr.db work again after 1 s (1 refused in all)');
    for (let i = 0; i < 30; i++) {
      tick(500);
      log.fault(full);
      tick(500);
      log.recovered();
    }
    // One line says the fault came back and why that happens; the turns after it are counted.
    expect(lines[2]).toMatch(/^vtr: writes to \/data\/vtr\.db are refused again 1 s after working \(SQLITE_FULL\): the space comes and goes/);
    expect(lines[2]).toContain('ulimit -f');
    expect(lines.filter((l) => l.includes('are failing'))).toHaveLength(1);
    expect(lines.filter((l) => l.includes('work again'))).toHaveLength(1);
    expect(lines.slice(3).every((l) => /^vtr: \d+ more write\(s\) to \/data\/vtr\.db refused in the last 1\d s \(SQLITE_FULL\)$/.test(l)), lines.join('\n')).toBe(true);
    expect(lines.length).toBeLessThanOrEqual(6);
    // Writes hold: after 10 s, one line says so, with the turns.
    const before = lines.length;
    tick(9_000);
    expect(lines).toHaveLength(before);
    tick(1_000);
    expect(lines.at(-1)).toMatch(/^vtr: writes to \/data\/vtr\.db work again after 4\d s \(31 refused in all, failing again 30 time\(s\) after working for a moment\)$/);
  });

  it('fault log: a refusal a minute after writes worked again is a new fault with its own first line', () => {
    const { lines, deps, tick } = setup();
    const log = createFaultLog(deps);
    log.fault(full);
    log.recovered();
    tick(60_000);
    log.fault(full);
    expect(lines.filter((l) => l.includes('are failing'))).toHaveLength(2);
  });

  it('fault log: stop drops a recovery line still waiting', () => {
    const { lines, deps, tick, pending } = setup();
    const log = createFaultLog(deps);
    log.fault(full);
    log.recovered();
    tick(1_000);
    log.fault(full);
    log.recovered();
    expect(pending()).toBe(1);
    log.stop();
    tick(20_000);
    expect(lines.filter((l) => l.includes('work again'))).toHaveLength(1);
  });

  it('fault log: another kind of fault gets its own first line', () => {
    const { lines, deps } = setup();
    const log = createFaultLog(deps);
    log.fault(full);
    log.fault(readOnly);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('503 database_read_only');
  });

  it('unexpected errors: the stack once per distinct error, then a count at most every 10 s', () => {
    const { lines, deps, tick } = setup();
    const log = createUnexpectedErrorLog(deps);
    const boom = () => new Error('boom');
    for (let i = 0; i < 50; i++) log.report(boom());
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/boom\n\s+at /);
    log.report(new Error('other'));
    expect(lines).toHaveLength(2);
    tick(10_000);
    log.report(boom());
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('vtr: the unexpected error "boom" happened 50 more time(s) in the last 10 s');
  });
});

import { describe, expect, it } from 'vitest';
import { createFaultLog, createUnexpectedErrorLog } from '../../src/logs/fault-log.js';
import type { StorageFault } from '../../src/store/storage-faults.js';

function setup() {
  const lines: string[] = [];
  let t = 1_000_000;
  const deps = { write: (l: string) => lines.push(l), now: () => t };
  return { lines, deps, tick: (ms: number) => void (t += ms) };
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

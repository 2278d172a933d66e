import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_PRETTY_PER_SECOND, createServeLog, formatLogLine } from '../src/serve-log.js';

const entry = (i: number) => ({ method: 'POST', path: `/api/v1/session/s${i}/event`, status: 200, duration_ms: 0.5, created_at: '2026-11-21T10:00:00.123456Z' });

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function capture(format: 'pretty' | 'json') {
  const out: string[] = [];
  const log = createServeLog(format, (lines) => out.push(...lines.split('\n')));
  return { out, log };
}

describe('serve log', () => {
  it('formatLogLine: pretty is time with its zone, method, path, status and duration', () => {
    expect(formatLogLine(entry(1), 'pretty')).toBe('10:00:00.123 UTC POST   /api/v1/session/s1/event 200 0.50ms');
    // an emulated time: a test clock's day is often not today
    expect(formatLogLine(entry(1), 'pretty', true)).toBe('2026-11-21 10:00:00.123 UTC (emulated) POST   /api/v1/session/s1/event 200 0.50ms');
    expect(JSON.parse(formatLogLine(entry(1), 'json'))).toEqual(entry(1));
  });

  it('createServeLog: pretty shows the first lines of a second, then says how many more there were', () => {
    const { out, log } = capture('pretty');
    for (let i = 0; i < 250; i++) log.entry(entry(i));
    vi.advanceTimersByTime(0); // the turn's batch
    expect(out).toHaveLength(MAX_PRETTY_PER_SECOND);
    expect(out.at(-1)).toContain(`/s${MAX_PRETTY_PER_SECOND - 1}/event`);
    vi.advanceTimersByTime(1_000);
    vi.runOnlyPendingTimers();
    expect(out.at(-1)).toMatch(/^vtr: … 150 more requests in the last second not shown here \(all are in the request log: vtr logs list/);
    // The next second starts afresh.
    log.entry(entry(999));
    vi.advanceTimersByTime(0);
    expect(out.at(-1)).toContain('/s999/event');
  });

  it('createServeLog: a quiet second says nothing more; close writes a pending count', () => {
    const { out, log } = capture('pretty');
    log.entry(entry(1));
    vi.advanceTimersByTime(2_000);
    expect(out).toHaveLength(1);
    for (let i = 0; i < MAX_PRETTY_PER_SECOND + 1; i++) log.entry(entry(i));
    log.close();
    expect(out.at(-1)).toMatch(/^vtr: … 1 more request in the last second/);
  });

  it('createServeLog: json prints every entry, however many', () => {
    const { out, log } = capture('json');
    for (let i = 0; i < 1_000; i++) log.entry(entry(i));
    log.close();
    expect(out).toHaveLength(1_000);
    expect(JSON.parse(out[999]).path).toBe('/api/v1/session/s999/event');
  });
});

// When request-log entries reach SQLite: after an idle moment, before any read, on close; and under
// a burst larger than the log keeps, only the newest entries are ever written.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRequestLogger, type RequestSeen } from '../../src/logs/request-logger.js';
import { createStore, type Store } from '../../src/store/index.js';
import { createEventBus, type EmulatorEvent } from '../../src/events/bus.js';
import { createClock } from '../../src/domain/clock.js';

let dir: string;
let store: Store;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'vtr-log-'));
  store = createStore({ path: join(dir, 'vtr.db') });
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const seen = (i: number, extra: Partial<RequestSeen> = {}): RequestSeen => ({
  method: 'GET', path: `/api/v1/x/${i}`, status: 200, durationMs: 1, atUs: 1_795_000_000_000_000 + i, bearer: null,
  requestBody: null, responseBody: `{"i":${i}}`, siteId: 'site_a', ...extra,
});
const rows = () => (store.db.prepare('SELECT path FROM request_log ORDER BY seq').all() as { path: string }[]).map((r) => r.path);

describe('request logger', () => {
  it('record: entries reach the database once requests stop for a moment, with no reader', async () => {
    const log = createRequestLogger({ store, bus: createEventBus(), clock: createClock() });
    log.record(seen(1));
    log.record(seen(2));
    expect(rows()).toEqual([]);
    await expect.poll(rows, { timeout: 2000, interval: 20 }).toEqual(['/api/v1/x/1', '/api/v1/x/2']);
  });

  it('record: after a pause, everything waiting is written while the server stays idle (no other wake-up needed)', async () => {
    const log = createRequestLogger({ store, bus: createEventBus(), clock: createClock() });
    // Resolved from inside the writes themselves: no polling timer wakes the loop meanwhile, only
    // the deadline's (which fails the test), so the writes must go on by themselves.
    let written = 0;
    let done!: () => void;
    const allWritten = new Promise<void>((r) => (done = r));
    const insertMany = store.requestLog.insertMany;
    store.requestLog.insertMany = (r) => {
      insertMany(r);
      written += r.length;
      if (written >= 512) done();
    };
    for (let i = 0; i < 512; i++) log.record(seen(i));
    let deadline: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      deadline = setTimeout(() => reject(new Error(`only ${written} of 512 entries written in 20 s of idle`)), 20_000);
    });
    try {
      await Promise.race([allWritten, timedOut]);
    } finally {
      clearTimeout(deadline);
    }
    expect(rows()).toHaveLength(512);
  });

  it('record: a background write that requests interrupt goes on in small transactions', () => {
    vi.useFakeTimers();
    try {
      const log = createRequestLogger({ store, bus: createEventBus(), clock: createClock(), timers: globalThis });
      const sizes: number[] = [];
      const insertMany = store.requestLog.insertMany;
      store.requestLog.insertMany = (r) => {
        sizes.push(r.length);
        insertMany(r);
      };
      for (let i = 0; i < 300; i++) log.record(seen(i));
      // The first tick sees the records; the second, a pause: everything waiting is due.
      vi.advanceTimersByTime(199);
      vi.advanceTimersToNextTimer();
      expect(sizes).toEqual([]);
      vi.advanceTimersToNextTimer();
      log.record(seen(300)); // traffic again
      vi.advanceTimersToNextTimer();
      vi.advanceTimersToNextTimer();
      expect(sizes).toEqual([64, 8, 64]);
      log.flush();
      expect(rows()).toHaveLength(301);
    } finally {
      vi.useRealTimers();
    }
  });

  it('record: under continuous traffic, entries are written at least every 5 s', () => {
    vi.useFakeTimers();
    try {
      const log = createRequestLogger({ store, bus: createEventBus(), clock: createClock(), timers: globalThis });
      // A request every 50 ms: never the 100 ms pause that writes at once.
      for (let i = 0; i < 90; i++) {
        log.record(seen(i));
        vi.advanceTimersByTime(50);
      }
      expect(rows()).toEqual([]);
      for (let i = 90; i < 110; i++) {
        log.record(seen(i));
        vi.advanceTimersByTime(50);
      }
      expect(rows().length).toBeGreaterThanOrEqual(90);
    } finally {
      vi.useRealTimers();
    }
  });

  it('record: in a flood (more entries between writes than the log keeps) writes wait 30 s, the newest kept', () => {
    vi.useFakeTimers();
    try {
      const log = createRequestLogger({ store, bus: createEventBus(), clock: createClock(), keep: 50, timers: globalThis });
      let i = 0;
      const traffic = (ms: number) => {
        for (let t = 0; t < ms; t += 50) {
          log.record(seen(i++));
          vi.advanceTimersByTime(50);
        }
      };
      traffic(10_000);
      expect(rows()).toEqual([]); // past 5 s, but every write would only replace the last one's rows
      traffic(21_000);
      const written = rows();
      expect(written.length).toBeGreaterThan(0);
      expect(written.length).toBeLessThanOrEqual(63);
      expect(Number(written.at(-1)!.split('/').at(-1))).toBeGreaterThan(590);
    } finally {
      vi.useRealTimers();
    }
  });

  it('list and get: write what is waiting first, so a read never misses an entry', () => {
    const log = createRequestLogger({ store, bus: createEventBus(), clock: createClock() });
    log.record(seen(1));
    const [entry] = log.list();
    expect(entry.path).toBe('/api/v1/x/1');
    log.record(seen(2));
    const id = log.list({ limit: 1 })[0].request_id;
    expect(log.get(id)?.path).toBe('/api/v1/x/2');
    expect(rows()).toHaveLength(2);
  });

  it('record: a burst larger than the log keeps writes only the newest entries, in order', () => {
    const log = createRequestLogger({ store, bus: createEventBus(), clock: createClock(), keep: 100 });
    for (let i = 0; i < 1000; i++) log.record(seen(i));
    expect(rows()).toEqual([]); // nothing written on the requests' path
    log.flush();
    const written = rows();
    expect(written.length).toBeLessThanOrEqual(125);
    expect(written.at(-1)).toBe('/api/v1/x/999');
    expect(log.list({ limit: 10_000 }).map((e) => e.path)).toEqual(Array.from({ length: 100 }, (_, i) => `/api/v1/x/${999 - i}`));
  });

  it('record: publishes each entry at once, bodies masked when read', () => {
    const bus = createEventBus();
    const events: EmulatorEvent[] = [];
    bus.subscribe((e) => events.push(e));
    const log = createRequestLogger({ store, bus, clock: createClock() });
    const secret = `sk_test_${'a'.repeat(28)}wxyz`;
    log.record(seen(1, { method: 'POST', path: `/api/v1/event?secret_key=${secret}`, requestBody: JSON.stringify({ secret_key: secret }) }));
    expect(events).toHaveLength(1);
    const text = JSON.stringify(events[0].data);
    expect(text).not.toContain(secret);
    expect(JSON.parse(text)).toMatchObject({ method: 'POST', status: 200, site_id: 'site_a', response_body: '{"i":1}' });
    expect(JSON.parse(text).request_body).toContain('sk_test_…wxyz');
    log.flush();
    const stored = JSON.stringify(store.db.prepare('SELECT * FROM request_log').all());
    expect(stored).not.toContain(secret);
  });

  it('record: the published entry is the stored one (same id and fields), read in full even after the log wrote it', () => {
    const bus = createEventBus();
    const events: EmulatorEvent[] = [];
    bus.subscribe((e) => events.push(e));
    const log = createRequestLogger({ store, bus, clock: createClock() });
    for (let i = 0; i < 3; i++) log.record(seen(i, { requestBody: Buffer.from(`{"n":${i},"name":"Zoë"}`), responseBody: Buffer.from(`{"ok":${i}}`) }));
    log.flush();
    // Megabytes more, written, then more again: the log's memory for the first three is used again.
    for (let i = 3; i < 2_000; i++) log.record(seen(i, { responseBody: 'z'.repeat(1_000) }));
    log.flush();
    for (let i = 2_000; i < 4_000; i++) log.record(seen(i, { responseBody: 'z'.repeat(1_000) }));
    const published = events.slice(0, 3).map((e) => JSON.parse(JSON.stringify(e.data)));
    const stored = store.db.prepare('SELECT * FROM request_log ORDER BY seq LIMIT 3').all() as Array<Record<string, unknown>>;
    expect(published).toEqual(stored.map(({ seq: _seq, ...row }) => row));
    expect(published.map((p) => p.request_body)).toEqual(['{"n":0,"name":"Zoë"}', '{"n":1,"name":"Zoë"}', '{"n":2,"name":"Zoë"}']);
    expect(published[0].request_id).toMatch(/^req_[0-9a-z]{8}[0-9A-Za-z]{8}$/);
    expect(new Set(published.map((p) => p.request_id)).size).toBe(3);
  });

  it('record: a flood never writes entries past the newest `keep` because together they hold over 32 MiB', async () => {
    const log = createRequestLogger({ store, bus: createEventBus(), clock: createClock(), keep: 240 });
    const big = 'x'.repeat(64 * 1024);
    // 1,000 entries of 128 KB: 125 MB in all, but the newest 240 hold 30 MB.
    for (let i = 0; i < 1_000; i++) log.record(seen(i, { requestBody: big, responseBody: big }));
    await new Promise((r) => setImmediate(r));
    expect(rows()).toEqual([]);
    await log.settle();
    expect(rows()).toEqual(Array.from({ length: 240 }, (_, i) => `/api/v1/x/${760 + i}`));
  });

  it('record: entries holding more than 32 MiB are written at once, without waiting for a pause', async () => {
    const log = createRequestLogger({ store, bus: createEventBus(), clock: createClock() });
    const big = 'x'.repeat(64 * 1024);
    for (let i = 0; i < 600; i++) log.record(seen(i, { responseBody: big }));
    await new Promise((r) => setImmediate(r));
    expect(rows().length).toBeGreaterThan(0);
    await log.settle();
    expect(rows()).toHaveLength(600);
  });

  it('settle: writes everything waiting (the emulator calls it on close)', async () => {
    const log = createRequestLogger({ store, bus: createEventBus(), clock: createClock() });
    for (let i = 0; i < 300; i++) log.record(seen(i));
    await log.settle();
    expect(rows()).toHaveLength(300);
  });

  it('settle: a long backlog is written a chunk per turn, other work (requests) going on between', async () => {
    const log = createRequestLogger({ store, bus: createEventBus(), clock: createClock() });
    for (let i = 0; i < 2_000; i++) log.record(seen(i));
    let seenMidway = -1;
    const settled = log.settle();
    // A task queued after the read began, as a request arriving meanwhile is: it runs before the
    // backlog is all written, and what it records is written too by the time the read goes on.
    setImmediate(() => {
      seenMidway = rows().length;
      log.record(seen(2_000));
    });
    await settled;
    expect(seenMidway).toBeGreaterThan(0);
    expect(seenMidway).toBeLessThan(2_000);
    expect(rows()).toHaveLength(2_001);
    expect(rows().at(-1)).toBe('/api/v1/x/2000');
  });

  it('list: paging by before gives each entry once when two servers on one file handed out the same seqs', () => {
    const second = createStore({ path: store.path });
    try {
      // Each server counts on from the log's max seq when it starts: both hand out 1, 2, 3.
      const a = createRequestLogger({ store, bus: createEventBus(), clock: createClock() });
      const b = createRequestLogger({ store: second, bus: createEventBus(), clock: createClock() });
      for (let i = 1; i <= 3; i++) {
        a.record(seen(i));
        b.record(seen(10 + i));
      }
      a.flush();
      b.flush();
      expect(rows()).toHaveLength(6);
      const all = a.list({ limit: 100 }).map((e) => e.path);
      expect(new Set(all).size).toBe(6);
      for (const limit of [1, 2]) {
        const paged: string[] = [];
        let before: string | undefined;
        for (let page = a.list({ limit }); page.length; page = a.list({ limit, before })) {
          paged.push(...page.map((e) => e.path));
          before = page.at(-1)!.request_id;
        }
        expect(paged, `limit ${limit}`).toEqual(all);
      }
    } finally {
      second.close();
    }
  });
});

describe('request logger after close', () => {
  it('record: an entry after the database closed is dropped, and nothing keeps retrying to write it', async () => {
    // Fake timers drive the logger's own idle timer and write chain: no wall-clock window.
    vi.useFakeTimers();
    try {
      const own = createStore({ path: ':memory:' });
      const log = createRequestLogger({ store: own, bus: createEventBus(), clock: createClock() });
      log.record(seen(1));
      own.close();
      log.record(seen(2));
      // The idle timer (100 ms) makes the entry due; a writer that cannot write must then stop:
      // runAllTimers throws if the timers keep re-arming (vitest gives up after 10,000 of them).
      vi.advanceTimersByTime(100);
      vi.runAllTimers();
      expect(vi.getTimerCount()).toBe(0);
      expect(() => log.flush()).not.toThrow();
    } finally {
      vi.useRealTimers();
    }
  });
});

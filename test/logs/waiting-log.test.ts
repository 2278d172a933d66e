// The waiting log keeps entries off the JS heap; what it gives back must be exactly what went in,
// oldest first, through growth, drops and slabs used again.
import { describe, expect, it } from 'vitest';
import { WaitingLog, type WaitingInput } from '../../src/logs/waiting-log.js';

const utf8 = new TextDecoder();
const text = (b: Uint8Array | null) => (b == null ? null : utf8.decode(b));

const entry = (i: number, extra: Partial<WaitingInput> = {}): WaitingInput => ({
  seq: i, rnd: i * 7, method: i % 2 ? 'POST' : 'GET', path: `/api/v1/session/ses_${i}`, status: 200 + (i % 300), durationMs: i / 8,
  atUs: 1_795_000_000_000_000 + i, siteId: i % 3 ? `site_${i % 3}` : null,
  requestBody: i % 4 === 0 ? null : `{"i":${i},"name":"Zoë 😀"}`, responseBody: Buffer.from(`{"ok":${i}}`), ...extra,
});

const read = (log: WaitingLog, k: number) => {
  const v = log.view(k);
  return { ...v, requestBody: text(v.requestBody), responseBody: text(v.responseBody) };
};
const expected = (i: number) => {
  const e = entry(i);
  return { ...e, requestBody: e.requestBody as string | null, responseBody: text(e.responseBody as Uint8Array) };
};

describe('waiting log', () => {
  it('push and view: every field back as it went in, text and bytes alike, UTF-8 intact', () => {
    const log = new WaitingLog();
    for (let i = 0; i < 10; i++) log.push(entry(i));
    expect(log.length).toBe(10);
    for (let k = 0; k < 10; k++) expect(read(log, k)).toEqual(expected(k));
  });

  it('push: past its first slots it grows, keeping the order', () => {
    const log = new WaitingLog();
    for (let i = 0; i < 5_000; i++) log.push(entry(i));
    expect(log.length).toBe(5_000);
    for (const k of [0, 1023, 1024, 2048, 4999]) expect(read(log, k)).toEqual(expected(k));
  });

  it('drop: forgets the oldest, across the ring wrapping round and growing while wrapped', () => {
    const log = new WaitingLog();
    let next = 0;
    for (; next < 1000; next++) log.push(entry(next));
    log.drop(900);
    for (; next < 2500; next++) log.push(entry(next)); // wraps, then grows with head past 0
    expect(log.length).toBe(1600);
    expect(read(log, 0)).toEqual(expected(900));
    expect(read(log, 1599)).toEqual(expected(2499));
    log.drop(10_000);
    expect(log.length).toBe(0);
    log.push(entry(7));
    expect(read(log, 0)).toEqual(expected(7));
  });

  it('bytes: counts what waits, and falls back to nothing once all is dropped', () => {
    const log = new WaitingLog();
    log.push(entry(1, { requestBody: 'x'.repeat(1000), responseBody: null }));
    expect(log.bytes).toBeGreaterThan(1000);
    log.drop(1);
    expect(log.bytes).toBe(0);
  });

  it('slabs: megabytes of bodies, dropped and pushed again, read back intact (slabs used again)', () => {
    const log = new WaitingLog();
    const body = (i: number) => `${String(i).padStart(6, '0')}${'abcdefgh'.repeat(4000)}`; // ~32 KB
    let next = 0;
    for (let round = 0; round < 6; round++) {
      for (let n = 0; n < 100; n++, next++) log.push(entry(next, { requestBody: body(next) }));
      log.drop(70);
      for (let k = 0; k < log.length; k++) {
        const v = read(log, k);
        expect(v.requestBody).toBe(body(v.seq));
      }
    }
    expect(log.length).toBe(180);
  });

  it('push: an entry larger than a slab gets a slab of its own', () => {
    const log = new WaitingLog();
    const big = 'y'.repeat(1_500_000);
    log.push(entry(1));
    log.push(entry(2, { responseBody: big }));
    log.push(entry(3));
    expect(read(log, 1).responseBody).toBe(big);
    expect(read(log, 2)).toEqual(expected(3));
  });
});

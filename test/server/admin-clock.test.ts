import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator } from '../../src/emulator.js';
import { harness, TIMESTAMP, type Harness } from '../helpers/emulator.js';
import { tempDir } from '../helpers/vtr-process.js';
import { join } from 'node:path';
import { rmSync } from 'node:fs';

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

const asMs = (ts: string) => Date.parse(`${ts.slice(0, 23)}Z`);
const utcSecond = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

describe('management API: clock', () => {
  it('clock: shows now, mode and offset', async () => {
    h = harness();
    const r = await h.admin('GET', '/clock');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ now: expect.stringMatching(TIMESTAMP), mode: 'system', offset_ms: 0 });
    expect(Math.abs(asMs(r.body.now) - Date.now())).toBeLessThan(60_000);
  });

  it('clock advance: a system clock refuses with 409', async () => {
    h = harness();
    for (const [path, body] of [['/clock/advance', { duration: '5m' }], ['/clock/set', { timestamp: '2099-01-01T00:00:00' }]] as const) {
      const r = await h.admin('POST', path, body);
      expect(r.status).toBe(409);
      expect(r.body.code).toBe('conflict');
      expect(r.body.message).toMatch(/manual/);
    }
    expect((await h.admin('GET', '/clock')).body.offset_ms).toBe(0);
  });

  it('clock advance: a manual clock moves forward by a duration', async () => {
    h = harness({ clock: 'manual' });
    const before = (await h.admin('GET', '/clock')).body;
    expect(before.mode).toBe('manual');
    const r = await h.admin('POST', '/clock/advance', { duration: '1h30m' });
    expect(r.status).toBe(200);
    expect(r.body.offset_ms).toBe(90 * 60_000);
    expect(asMs(r.body.now) - asMs(before.now)).toBeGreaterThanOrEqual(90 * 60_000);
    const ms = await h.admin('POST', '/clock/advance', { duration: 1000 });
    expect(ms.body.offset_ms).toBe(90 * 60_000 + 1000);
    // sessions take the clock's time
    const s = await h.createSession();
    expect(asMs(s.created_at) - Date.now()).toBeGreaterThan(80 * 60_000);
  });

  it('clock set: a manual clock jumps forward, never back', async () => {
    h = harness({ clock: 'manual' });
    const target = '2099-03-04T05:06:07';
    const r = await h.admin('POST', '/clock/set', { timestamp: target });
    expect(r.status).toBe(200);
    expect(r.body.now.startsWith('2099-03-04T05:06')).toBe(true);
    const back = await h.admin('POST', '/clock/set', { timestamp: '2030-01-01T00:00:00' });
    expect(back.status).toBe(409);
    expect(back.body.message).toMatch(/forward/);
    const neg = await h.admin('POST', '/clock/advance', { duration: -5 });
    expect(neg.status).toBe(400);
    expect(asMs((await h.admin('GET', '/clock')).body.now)).toBeGreaterThanOrEqual(asMs(r.body.now));
  });

  it('clock set: a time before the clock\'s says both times, that a reset keeps the clock, and how to start one that is earlier', async () => {
    h = harness({ clock: 'frozen' });
    await h.admin('POST', '/clock/set', { timestamp: '2099-03-04T05:06:07' });
    const real = utcSecond(Date.now());
    const back = await h.admin('POST', '/clock/set', { timestamp: '2098-01-01T10:00:00+02:00' });
    expect(back.status).toBe(409);
    expect(back.body).toMatchObject({ code: 'conflict', field: 'timestamp' });
    expect(back.body.message).toMatch(
      /^2098-01-01 08:00:00 UTC is before the clock's current time, 2099-03-04 05:06:07 UTC \(emulated\): the clock only moves forward, and `vtr state reset` keeps it\. To go back, start the emulator again on a new database \(`vtr serve --memory --clock frozen`, or another --db\): its clock starts at the real time, then `vtr clock set` it\.$/,
    );
    // Before the real time no clock can go: the message says so and when that is.
    const past = await h.admin('POST', '/clock/set', { timestamp: '2000-01-01T00:00:00Z' });
    expect(past.body.message).toMatch(/^2000-01-01 00:00:00 UTC is before the clock's current time, 2099-03-04 05:06:07 UTC \(emulated\): the clock only moves forward, and `vtr state reset` keeps it\. /);
    expect(past.body.message).toMatch(/Not even a new database goes back that far: its clock starts at the real time \((\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) UTC\)\.$/);
    expect(past.body.message.match(/real time \(([^)]+) UTC\)/)![1] >= real).toBe(true);
    expect((await h.admin('GET', '/clock')).body.now.startsWith('2099-03-04T05:06:07')).toBe(true);
  });

  it('clock: bad durations and timestamps are a 400 naming the field', async () => {
    h = harness({ clock: 'manual' });
    for (const [path, body, field] of [
      ['/clock/advance', { duration: 'soon' }, 'duration'],
      ['/clock/advance', {}, 'duration'],
      ['/clock/advance', { duration: true }, 'duration'],
      // A number in a string has no unit: read as seconds it would be a thousand times the number's milliseconds.
      ['/clock/advance', { duration: '1500' }, 'duration'],
      ['/clock/advance', { duration: 0.5 }, 'duration'],
      ['/clock/set', { timestamp: 'tomorrow' }, 'timestamp'],
      ['/clock/set', { timestamp: 12 }, 'timestamp'],
    ] as const) {
      const r = await h.admin('POST', path, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.message).toContain(field);
    }
    expect((await h.admin('GET', '/clock')).body.offset_ms).toBe(0);
  });

  it('clock: a huge move is refused and leaves the clock readable', async () => {
    h = harness({ clock: 'manual' });
    const moves: Array<[string, Record<string, unknown>]> = [
      ['/clock/advance', { duration: 1e308 }], ['/clock/advance', { duration: '9'.repeat(400) }],
      ['/clock/advance', { duration: '99999999999999999999d' }], ['/clock/advance', { duration: Number.MAX_SAFE_INTEGER }],
      ['/clock/advance', { duration: '10000000d' }], ['/clock/advance', { duration: 'Infinity' }],
    ];
    for (const [path, body] of moves) {
      const r = await h.admin('POST', path, body);
      expect([400, 409], JSON.stringify(body)).toContain(r.status);
    }
    const clock = await h.admin('GET', '/clock');
    expect(clock.status).toBe(200);
    expect(clock.body.offset_ms).toBe(0);
    // a far but representable move is fine, and timestamps keep their format
    expect((await h.admin('POST', '/clock/set', { timestamp: '2200-01-01T00:00:00' })).status).toBe(200);
    const s = await h.createSession();
    expect(s.created_at).toMatch(/^2200-01-01T00:00:0\d\.\d{6}$/);
  });

  it('clock: a manual offset survives a restart', async () => {
    const dir = tempDir();
    const db = join(dir, 'clock.db');
    const one = createEmulator({ dbPath: db, clock: 'manual' });
    one.clock.advance(3_600_000);
    await one.close();
    const two = createEmulator({ dbPath: db, clock: 'manual' });
    try {
      expect(two.clock.offsetMs()).toBe(3_600_000);
    } finally {
      await two.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('health and admin token', () => {
  it('health: answers ok with the version', async () => {
    h = harness();
    const r = await h.json('GET', '/_vtr/health');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: 'ok', version: expect.any(String) });
    expect((await h.request('/_vtr/health', { method: 'HEAD' })).status).toBe(200);
  });

  it('admin token: the management API needs it; the public API and health do not', async () => {
    h = harness({ adminToken: 'sekret-admin' });
    const sessionId = (await h.createSession()).session_id; // the helper sends the admin token
    const without = await h.json('GET', '/_vtr/api/sites');
    expect(without.status).toBe(401);
    expect(without.body.code).toBe('unauthorized');
    expect((await h.json('GET', '/_vtr/api/sites', { token: 'wrong' })).status).toBe(401);
    expect((await h.json('GET', '/_vtr/api/sites', { token: 'sekret-admin' })).status).toBe(200);
    expect((await h.json('POST', '/_vtr/api/sites', { body: { name: 'x' } })).status).toBe(401);
    expect((await h.json('GET', '/_vtr/health')).status).toBe(200);
    expect((await h.api('GET', `/session/${sessionId}`)).status).toBe(200);
  });
});

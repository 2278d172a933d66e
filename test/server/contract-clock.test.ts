// Contract §2 "Clock" with §6 retries: under `--clock manual`, moving the clock runs every delivery
// that became due on the way — retries scheduled by those attempts included, each at its time —
// before the call returns. A user's `clock advance 2m` takes a failing event through the whole
// default 2 s … 32 s schedule to `failed` (and its notification), without waiting in real time.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/emulator.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { startEmulator, type RunningEmulator } from '../../src/index.js';
import { createEmulator } from '../../src/emulator.js';
import { formatDurationExact } from '../../src/domain/time.js';
import { tempDir } from '../helpers/vtr-process.js';
import { join } from 'node:path';
import { rmSync } from 'node:fs';

const asMs = (ts: string) => Date.parse(`${ts.slice(0, 23)}Z`);

describe('contract: a manual clock move runs the retries that fall due on the way', () => {
  let h: Harness | null = null;
  let emu: RunningEmulator | null = null;
  let rx: Receiver;
  beforeEach(async () => {
    rx = await startReceiver({ answer: () => 500 });
  });
  afterEach(async () => {
    await h?.close();
    await emu?.close();
    h = null;
    emu = null;
    await rx.close();
  });

  async function failingEvent(opts: Parameters<typeof harness>[0] = {}) {
    h = harness({ clock: 'manual', ...opts });
    const hook = (await h.admin('POST', `/sites/${h.site.site_id}/webhooks`, { url: rx.url })).body;
    await h.admin('POST', `/sites/${h.site.site_id}/views`, { name: 'All', filter: 'page_views >= 1', trigger_webhooks: true });
    await h.createSession();
    await h.admin('POST', '/clock/advance', { duration: 0 });
    const [e] = (await h.admin('GET', `/webhooks/${hook.webhook_id}/events`)).body;
    expect(e).toMatchObject({ status: 'retrying', attempts: [{ attempt: 1, status_code: 500 }] });
    return { hook, id: e.webhook_event_id as string };
  }

  it('clock advance 2m: the default schedule (2, 4, 8, 16, 32 s) runs to `failed`, notified; the offset grows by exactly 2m', async () => {
    const { id } = await failingEvent();
    const before = (await h!.admin('GET', '/clock')).body.offset_ms;
    const r = await h!.admin('POST', '/clock/advance', { duration: '2m' });
    expect(r.status).toBe(200);
    expect(r.body.offset_ms).toBe(before + 120_000);
    const e = (await h!.admin('GET', `/webhook-events/${id}`)).body;
    expect(e).toMatchObject({ status: 'failed', auto_retries_remaining: 0, next_attempt_at: null });
    expect(e.attempts.map((a: any) => [a.attempt, a.trigger, a.status_code])).toEqual([1, 2, 3, 4, 5, 6].map((n) => [n, 'auto', 500]));
    // Each retry ran at its scheduled time on the emulator's clock: gaps of 2, 4, 8, 16, 32 s.
    const at = e.attempts.map((a: any) => asMs(a.at));
    const gaps = at.slice(1).map((t: number, i: number) => (t - at[i]) / 1000);
    [2, 4, 8, 16, 32].forEach((g, i) => expect(gaps[i]).toBeGreaterThanOrEqual(g));
    [2, 4, 8, 16, 32].forEach((g, i) => expect(gaps[i]).toBeLessThan(g + 2));
    expect(rx.deliveries.map((d) => d.json.attempt)).toEqual([1, 2, 3, 4, 5, 6]);
    const outbox = (await h!.admin('GET', '/notifications')).body;
    expect(outbox).toEqual([expect.objectContaining({ kind: 'webhook_event_failed', webhook_event_id: id })]);
  });

  it('clock advance: a retry due after the end of the move does not run yet', async () => {
    const { id } = await failingEvent({ retryBaseMs: 3_600_000 });
    await h!.admin('POST', '/clock/advance', { duration: '30m' });
    expect((await h!.admin('GET', `/webhook-events/${id}`)).body).toMatchObject({ status: 'retrying', attempts: [expect.anything()] });
    // 1 h, then 2 h after that: a 3 h move runs exactly those two.
    await h!.admin('POST', '/clock/advance', { duration: '3h' });
    const e = (await h!.admin('GET', `/webhook-events/${id}`)).body;
    expect(e).toMatchObject({ status: 'retrying', auto_retries_remaining: 2 });
    expect(e.attempts).toHaveLength(3);
  });

  it('clock set: jumping forward runs the retries on the way too', async () => {
    const { id } = await failingEvent();
    const now = (await h!.admin('GET', '/clock')).body.now as string;
    const target = new Date(asMs(now) + 3_600_000).toISOString().slice(0, 19);
    expect((await h!.admin('POST', '/clock/set', { timestamp: target })).status).toBe(200);
    expect((await h!.admin('GET', `/webhook-events/${id}`)).body).toMatchObject({ status: 'failed', attempts: { length: 6 } });
    // Refusals are unchanged: never back, and not on a system clock.
    const back = await h!.admin('POST', '/clock/set', { timestamp: now.slice(0, 19) });
    expect(back).toMatchObject({ status: 409, body: { code: 'conflict' } });
  });

  it('clock advance: two moves asked at once run one after the other: the clock grows by both, every retry on the way runs', async () => {
    const { id } = await failingEvent({ clock: 'frozen' });
    const before = asMs((await h!.admin('GET', '/clock')).body.now);
    const [a, b] = await Promise.all([h!.admin('POST', '/clock/advance', { duration: '1h' }), h!.admin('POST', '/clock/advance', { duration: '1h' })]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(asMs((await h!.admin('GET', '/clock')).body.now) - before).toBe(2 * 3_600_000);
    expect((await h!.admin('GET', `/webhook-events/${id}`)).body).toMatchObject({ status: 'failed', attempts: { length: 6 } });
    expect(rx.deliveries).toHaveLength(6);
  });

  it('library: emu.clock.advance("2m") does the same before it resolves', async () => {
    emu = await startEmulator({ clock: 'manual' });
    const site = emu.site.siteId;
    const hook = await emu.client.admin<any>('POST', `/sites/${site}/webhooks`, { body: { url: rx.url } });
    await emu.client.admin('POST', `/sites/${site}/views`, { body: { name: 'All', filter: 'page_views >= 1', trigger_webhooks: true } });
    await emu.client.admin('POST', `/sites/${site}/sessions`, { body: {} });
    await emu.clock.advance(0);
    await emu.clock.advance('2m');
    const [e] = await emu.client.admin<any[]>('GET', `/webhooks/${hook.webhook_id}/events`);
    expect(e).toMatchObject({ status: 'failed', attempts: { length: 6 } });
    await expect(emu.clock.set('2000-01-01T00:00:00')).rejects.toThrow(/forward/);
  });
});

describe('contract: a clock move cut short by a shutdown says so', () => {
  it('clock advance: a shutdown during the move answers 503 shutting_down, with the clock stopped before the attempts it could not run', async () => {
    const rx = await startReceiver({ answer: () => 500 });
    const dir = tempDir();
    const db = join(dir, 'vtr.db');
    const emulator = createEmulator({ dbPath: db, clock: 'frozen', webhookLog: () => {} });
    try {
      const { port } = await emulator.listen(0, '127.0.0.1');
      const base = `http://127.0.0.1:${port}/_vtr/api`;
      const post = (path: string, body: unknown) =>
        fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const site = emulator.bootstrap!.site.site_id;
      await post(`/sites/${site}/webhooks`, { url: rx.url });
      await post(`/sites/${site}/views`, { name: 'All', filter: 'page_views >= 1', trigger_webhooks: true });
      await post(`/sites/${site}/sessions`, {});
      await rx.waitFor((ds) => ds.length === 1);
      const start = ((await (await fetch(`${base}/clock`)).json()) as { now: string }).now;
      // The first retry (due 2 s on) hangs until the server has begun to stop.
      rx.answer(() => 'hang');
      const move = post('/clock/advance', { duration: '1h' });
      await rx.waitFor((ds) => ds.length === 2);
      const closing = emulator.close();
      rx.releaseHanging();
      const r = await move;
      const body = (await r.json()) as { code: string; message: string; now: string; remaining_ms: number };
      await closing;
      expect(r.status).toBe(503);
      expect(body.code).toBe('shutting_down');
      expect(body.message).toMatch(/shutting down/);
      expect(body.message).toMatch(/vtr clock advance/);
      // Stopped before the retry it could not run (due 4 s after the failed one), not at the end of the hour.
      const at = asMs(body.now) - asMs(start);
      expect(at).toBeGreaterThanOrEqual(2_000);
      expect(at).toBeLessThan(6_000);
      expect(body.remaining_ms).toBe(3_600_000 - at);
      expect(body.message).toContain(`vtr clock advance ${formatDurationExact(body.remaining_ms)}`);
      expect(rx.deliveries).toHaveLength(2);
      // Started again, the clock is where the answer said, and that retry is still ahead of it.
      const again = createEmulator({ dbPath: db, clock: 'frozen', webhookLog: () => {} });
      try {
        expect(again.clock.now()).toBe(asMs(body.now));
        const [e] = again.store.webhookEvents.list({});
        expect(e).toMatchObject({ status: 'retrying' });
        expect(e.next_attempt_us! / 1000).toBeGreaterThan(again.clock.now());
      } finally {
        await again.close();
      }
    } finally {
      await rx.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

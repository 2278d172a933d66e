// emu.webhooks.waitFor sees a status an event held only for a moment (shorter than any poll).
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, VtrError, WaitForTimeoutError, type RunningEmulator, type Webhook, type WebhookEvent } from '../../src/index.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';

// Several webhooks, one event each: each event is in the short status for a moment only.
const N = 6;

describe('webhooks.waitFor: short statuses', () => {
  let emu: RunningEmulator;
  let rx: Receiver;
  let hooks: Webhook[];
  const post = async (path: string) => expect((await emu.fetch(`/_vtr/api${path}`, { method: 'POST' })).status).toBe(200);
  /** Runs `then` on the event of `hook` the moment it is in `status` (a read after each turn of the loop). */
  const onStatus = async (hook: Webhook, status: string, then: (ev: WebhookEvent) => Promise<void>) => {
    for (;;) {
      const [ev] = await emu.webhooks.events({ webhookId: hook.webhook_id });
      if (ev?.status === status) return then(ev);
      await new Promise((r) => setImmediate(r));
    }
  };

  beforeAll(async () => {
    // A retry an hour later: an event stays `retrying` until something else moves it on.
    emu = await startEmulator({ retrySchedule: [3_600_000, 3_600_000, 3_600_000, 3_600_000, 3_600_000], listen: false });
    // The first attempt is answered late (waitFor is waiting by then) with a 500; a retry by hand with a 200.
    rx = await startReceiver({ answer: (d) => (d.json.attempt === 1 ? { status: 500, delayMs: 150 } : 200) });
  });
  beforeEach(async () => {
    await emu.reset();
    await emu.views.create({ name: 'tor', filter: 'risks contains tor' });
    hooks = [];
    for (let i = 0; i < N; i++) hooks.push(await emu.webhooks.create(`${rx.url}?n=${i}`));
  });
  afterAll(async () => {
    await emu?.close();
    await rx?.close();
  });

  it('waitFor: resolves with an event that was retrying for less than a poll, as it was then', async () => {
    await emu.sessions.create({ ip: '203.0.113.60' });
    const waits = hooks.map((h) => emu.webhooks.waitFor({ webhookId: h.webhook_id, status: 'retrying', timeoutMs: 2000 }));
    // Disabling the webhook stops the retry: the event is failed the moment it was retrying.
    await Promise.all(hooks.map((h) => onStatus(h, 'retrying', () => post(`/webhooks/${h.webhook_id}/disable`))));
    const events = await Promise.all(waits);
    for (const [i, ev] of events.entries()) {
      expect(ev).toMatchObject({ webhook_id: hooks[i].webhook_id, status: 'retrying', auto_retries_remaining: 4 });
      expect(ev.next_attempt_at).not.toBeNull();
      expect(ev.attempts.map((a) => a.status_code)).toEqual([500]);
    }
    for (const h of hooks) expect((await emu.webhooks.events({ webhookId: h.webhook_id }))[0].status).toBe('failed');
  });

  it('waitFor: resolves with an event that was failed for less than a poll before its attempt in flight delivered it', async () => {
    // The first attempts are held; the webhooks are disabled meanwhile (their events failed), then
    // the held attempts are answered 200 (delivered) at once.
    const held: ServerResponse[] = [];
    const late = createServer((req, res) => void req.resume().on('end', () => held.push(res)));
    await new Promise<void>((resolve) => late.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(late.address() as AddressInfo).port}/hook`;
      for (const h of hooks) await emu.client.admin('PATCH', `/webhooks/${h.webhook_id}`, { body: { url } });
      await emu.sessions.create({ ip: '203.0.113.61' });
      const waits = hooks.map((h) => emu.webhooks.waitFor({ webhookId: h.webhook_id, status: 'failed', timeoutMs: 2000 }));
      while (held.length < N) await new Promise((r) => setTimeout(r, 5));
      for (const [i, h] of hooks.entries()) {
        await post(`/webhooks/${h.webhook_id}/disable`);
        held[i].writeHead(200).end();
      }
      const events = await Promise.all(waits);
      for (const [i, ev] of events.entries()) expect(ev).toMatchObject({ webhook_id: hooks[i].webhook_id, status: 'failed', auto_retries_remaining: 0, attempts: [] });
      // Resolved with the event as it was then, though it is delivered now.
      for (const h of hooks) expect(await emu.webhooks.waitFor({ webhookId: h.webhook_id })).toMatchObject({ status: 'delivered', attempts: [{ status_code: 200 }] });
    } finally {
      late.closeAllConnections();
      late.close();
    }
  });

  it('waitFor: a status the event already has resolves at once, as it is', async () => {
    const s = await emu.sessions.create({ ip: '203.0.113.62' });
    const h = hooks[0];
    await onStatus(h, 'retrying', async () => {});
    const t0 = performance.now();
    const ev = await emu.webhooks.waitFor({ sessionId: s.session_id, webhookId: h.webhook_id, status: 'retrying' });
    expect(ev).toMatchObject({ session_id: s.session_id, webhook_id: h.webhook_id, status: 'retrying' });
    expect(performance.now() - t0).toBeLessThan(1000);
  });

  it('waitFor: a status passed through before the call is not waited for, and the timeout names what it saw', async () => {
    const s = await emu.sessions.create({ ip: '203.0.113.63' });
    const h = hooks[0];
    await onStatus(h, 'retrying', () => post(`/webhooks/${h.webhook_id}/disable`));
    const [ev] = await emu.webhooks.events({ webhookId: h.webhook_id });
    await expect(emu.webhooks.waitFor({ sessionId: s.session_id, webhookId: h.webhook_id, status: 'retrying', timeoutMs: 50 })).rejects.toThrow(
      `webhooks.waitFor: no webhook event for session ${s.session_id}, webhook ${h.webhook_id} reached retrying within 50 ms; saw: ${ev.webhook_event_id} failed (1 attempt)`,
    );
  });

  it('waitFor: a timeout rejects with a VtrError coded timeout, the events it saw on it as they were read', async () => {
    const frozen = await startEmulator({ clock: 'frozen', listen: false });
    try {
      await frozen.views.create({ name: 'tor', filter: 'risks contains tor' });
      await frozen.webhooks.create(rx.url);
      const s = await frozen.sessions.create({ ip: '203.0.113.65' });
      const ev = await frozen.webhooks.waitFor({ sessionId: s.session_id, status: 'retrying' });
      const err = (await frozen.webhooks.waitFor({ sessionId: s.session_id, timeoutMs: 50 }).catch((e: unknown) => e)) as WaitForTimeoutError;
      expect(err).toBeInstanceOf(VtrError);
      expect(err).toBeInstanceOf(WaitForTimeoutError);
      expect(err).toMatchObject({ name: 'WaitForTimeoutError', code: 'timeout' });
      expect(err.message).toMatch(new RegExp(`^webhooks\\.waitFor: no webhook event for session ${s.session_id} reached delivered within 50 ms; saw: ${ev.webhook_event_id} retrying \\(1 attempt, next at `));
      expect(err.events).toEqual([ev]);
      // None at all: an empty list, as the message says.
      const none = await frozen.webhooks.waitFor({ webhookId: ev.webhook_id, status: 'failed', timeoutMs: 0 }).catch((e: unknown) => e as WaitForTimeoutError);
      expect(none).toMatchObject({ code: 'timeout', events: [ev] });
      await frozen.reset();
      const empty = await frozen.webhooks.waitFor({ timeoutMs: 0 }).catch((e: unknown) => e as WaitForTimeoutError);
      expect(empty).toMatchObject({ code: 'timeout', events: [], message: 'webhooks.waitFor: no webhook event reached delivered within 0 ms; saw: no webhook event at all' });
    } finally {
      await frozen.close();
    }
  });

  it('waitFor: closing the emulator ends a wait at once, saying it is closed', async () => {
    const other = await startEmulator({ listen: false });
    const t0 = performance.now();
    const pending = other.webhooks.waitFor({ timeoutMs: 60_000 });
    await other.close();
    await expect(pending).rejects.toThrow(/^webhooks\.waitFor: this emulator is closed/);
    expect(performance.now() - t0).toBeLessThan(5000);
  });

  it('waitFor: on a frozen clock, a timeout names the retry due and what runs it', async () => {
    const frozen = await startEmulator({ clock: 'frozen', listen: false });
    try {
      await frozen.views.create({ name: 'tor', filter: 'risks contains tor' });
      await frozen.webhooks.create(rx.url);
      const s = await frozen.sessions.create({ ip: '203.0.113.64' });
      const ev = await frozen.webhooks.waitFor({ sessionId: s.session_id, status: 'retrying' });
      await expect(frozen.webhooks.waitFor({ sessionId: s.session_id, timeoutMs: 50 })).rejects.toThrow(
        `saw: ${ev.webhook_event_id} retrying (1 attempt, next at ${ev.next_attempt_at}); the clock is frozen: a retry runs when emu.clock.advance() or emu.clock.set() reaches its time`,
      );
    } finally {
      await frozen.close();
    }
  });
});

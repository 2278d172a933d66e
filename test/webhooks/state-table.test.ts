// The service description's webhook state table, row by row, against a real HTTP receiver
// (node:http) with the emulator in-process on a manual clock.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { harness, TIMESTAMP, type Harness } from '../helpers/emulator.js';
import { startReceiver, waitUntil, type Receiver } from '../helpers/receiver.js';
import { tempDir } from '../helpers/vtr-process.js';
import { FIELDS } from '../helpers/service-fields.js';
import { VERSION } from '../../src/version.js';

const HOUR = 3_600_000;
const tiny = [10, 10, 10, 10, 10];

describe('webhook state table (real receiver)', () => {
  let h: Harness;
  let rx: Receiver;
  beforeEach(async () => {
    rx = await startReceiver();
  });
  afterEach(async () => {
    await rx.close();
    await h?.close();
  });

  async function setup(opts: Parameters<typeof harness>[0] = {}) {
    h = harness({ clock: 'manual', retryBaseMs: 60_000, ...opts });
    const hook = (await h.admin('POST', `/sites/${h.site.site_id}/webhooks`, { url: rx.url })).body;
    const view = (await h.admin('POST', `/sites/${h.site.site_id}/views`, { name: 'Everyone', filter: 'page_views >= 1', trigger_webhooks: true })).body;
    return { hook, view };
  }
  const settle = () => h.admin('POST', '/clock/advance', { duration: 0 });
  const advance = (duration: string | number) => h.admin('POST', '/clock/advance', { duration });
  const events = async (webhookId: string, status?: string) => (await h.admin('GET', `/webhooks/${webhookId}/events${status ? `?status=${status}` : ''}`)).body as any[];
  const event = async (id: string) => (await h.admin('GET', `/webhook-events/${id}`)).body;
  const webhook = async (id: string) => (await h.admin('GET', `/webhooks/${id}`)).body;

  it('state table: enabled + 2xx → delivered, webhook stays enabled; signed Standard Webhooks request', async () => {
    const { hook, view } = await setup();
    const s = await h.createSession({ ip: '203.0.113.9' });
    await settle();
    const [e] = await events(hook.webhook_id);
    expect(e.status).toBe('delivered');
    expect((await webhook(hook.webhook_id)).status).toBe('enabled');
    expect(rx.deliveries).toHaveLength(1);
    const d = rx.deliveries[0];
    expect(d.headers['content-type']).toBe('application/json');
    expect(d.headers['user-agent']).toBe(`vtr/${VERSION}`);
    expect(d.headers['webhook-id']).toBe(e.webhook_event_id);
    expect(Number(d.headers['webhook-timestamp'])).toBeCloseTo(Date.now() / 1000, -2);
    // The manual clock is at real time here, inside standardwebhooks' 5-minute tolerance.
    expect(new Webhook(hook.secret).verify(d.body, d.headers as Record<string, string>)).toBeTruthy();
    const session = (await h.api('GET', `/session/${s.session_id}`)).body;
    expect(Object.keys(session).sort()).toEqual([...FIELDS].sort());
    for (const f of FIELDS) expect(d.json[f], f).toEqual(session[f]);
    expect(d.json).toMatchObject({
      hook_type: 'saved_view',
      saved_view_id: view.saved_view_id,
      saved_view_name: 'Everyone',
      webhook_id: hook.webhook_id,
      webhook_event_id: e.webhook_event_id,
      attempt: 1,
      triggered_at: expect.stringMatching(TIMESTAMP),
      risk_level: 'invalid',
    });
  });

  it('state table: enabled + 5xx → retried automatically up to 5 times with exponential backoff', async () => {
    rx.answer(() => 503);
    // A frozen clock: the gaps are exact, not stretched by how long each attempt took in real time.
    const { hook } = await setup({ clock: 'frozen' }); // --retry-base 60s: 60s, 120s, 240s, 480s, 960s
    await h.createSession();
    await settle();
    let [e] = await events(hook.webhook_id);
    expect(e).toMatchObject({ status: 'retrying', auto_retries_remaining: 4 });
    const gaps: number[] = [];
    for (let i = 0; i < 5; i++) {
      const last = e.attempts[e.attempts.length - 1];
      gaps.push(Date.parse(`${e.next_attempt_at}Z`) - Date.parse(`${last.at}Z`));
      await advance(e.next_attempt_at ? Date.parse(`${e.next_attempt_at}Z`) - Date.parse(`${(await h.admin('GET', '/clock')).body.now}Z`) + 1 : 0);
      e = await event(e.webhook_event_id);
    }
    for (const [i, g] of gaps.entries()) expect(Math.abs(g - 60_000 * 2 ** i)).toBeLessThan(50);
    expect(e).toMatchObject({ status: 'failed', auto_retries_remaining: 0, next_attempt_at: null });
    expect(e.attempts.map((a: any) => [a.attempt, a.trigger, a.status_code, a.error])).toEqual(
      [1, 2, 3, 4, 5, 6].map((n) => [n, 'auto', 503, null]),
    );
    expect(rx.deliveries.map((d) => d.json.attempt)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(new Set(rx.deliveries.map((d) => d.headers['webhook-id'])).size).toBe(1);
    // Same body every attempt except `attempt`.
    const bodies = rx.deliveries.map((d) => ({ ...d.json, attempt: 0 }));
    for (const b of bodies) expect(b).toEqual(bodies[0]);
    expect((await webhook(hook.webhook_id)).status).toBe('enabled');
  });

  it('state table: unreachable, 4xx, 3xx and timeouts are failures; a later 2xx delivers', async () => {
    const { hook } = await setup({ retrySchedule: [HOUR, HOUR, HOUR, HOUR, HOUR], webhookTimeoutMs: 2000 });
    const answers: Array<Parameters<Receiver['answer']>[0]> = [
      () => 404,
      () => ({ status: 302, headers: { location: 'http://127.0.0.1:1/elsewhere' } }),
      () => ({ status: 200, delayMs: 5000 }),
    ];
    rx.answer(answers[0]);
    await h.createSession();
    await settle();
    const id = (await events(hook.webhook_id))[0].webhook_event_id;
    rx.answer(answers[1]);
    await advance('61m');
    rx.answer(answers[2]);
    await advance('61m');
    // Unreachable: point the webhook at a port nobody listens on.
    await h.admin('PATCH', `/webhooks/${hook.webhook_id}`, { url: 'http://127.0.0.1:9/' });
    await advance('61m');
    await h.admin('PATCH', `/webhooks/${hook.webhook_id}`, { url: rx.url });
    rx.answer(() => 204);
    await advance('61m');
    const e = await event(id);
    expect(e.status).toBe('delivered');
    const [a404, a302, aSlow, aDown, aOk] = e.attempts;
    expect(a404).toMatchObject({ status_code: 404, error: null });
    expect(a302).toMatchObject({ status_code: 302, error: expect.stringContaining('not followed') });
    expect(aSlow).toMatchObject({ status_code: null, error: expect.stringMatching(/timed out/) });
    expect(aDown).toMatchObject({ status_code: null, error: expect.stringMatching(/ECONNREFUSED|refused/) });
    expect(aOk).toMatchObject({ attempt: 5, status_code: 204, error: null });
    expect(rx.deliveries.some((d) => d.headers.host?.endsWith(':1'))).toBe(false); // the redirect was not followed
  });

  it('state table: retries exhausted → failed, with a "webhook event failed" notification to the owner', async () => {
    rx.answer(() => 500);
    const { hook } = await setup({ retrySchedule: tiny });
    await h.createSession();
    await waitUntil(async () => (await events(hook.webhook_id, 'failed')).length === 1);
    const [e] = await events(hook.webhook_id);
    expect(e.attempts).toHaveLength(6);
    const outbox = (await h.admin('GET', '/notifications')).body;
    expect(outbox).toEqual([
      expect.objectContaining({
        notification_id: expect.stringMatching(/^ntf_/),
        kind: 'webhook_event_failed',
        site_id: h.site.site_id,
        webhook_id: hook.webhook_id,
        webhook_event_id: e.webhook_event_id,
        to: 'owner@example.com',
        subject: expect.stringContaining('failed'),
        body: expect.stringContaining(e.webhook_event_id),
        created_at: expect.stringMatching(TIMESTAMP),
      }),
    ]);
    expect((await webhook(hook.webhook_id))).toMatchObject({ status: 'enabled', consecutive_failures: 1 });
  });

  it('state table: 10 consecutive failed events over 3 days → disabled, retries stopped, notified; no new events', async () => {
    const hang = new Set<string>();
    rx.answer((d) => (hang.has(d.json.session_id) ? 'hang' : 500));
    const { hook } = await setup({ retrySchedule: tiny, webhookTimeoutMs: 60_000 });
    const failedCount = async () => (await events(hook.webhook_id, 'failed')).length;
    await h.createSession();
    await waitUntil(async () => (await failedCount()) === 1);
    await advance('3d');
    for (let i = 0; i < 8; i++) await h.createSession();
    await waitUntil(async () => (await failedCount()) === 9);
    expect((await webhook(hook.webhook_id))).toMatchObject({ status: 'enabled', consecutive_failures: 9 });
    // One event stays in flight (the receiver does not answer it) when the 10th failure lands.
    const stuck = await h.createSession({ fingerprint: 'fp_stuck' });
    hang.add(stuck.session_id);
    await rx.waitFor((ds) => ds.some((d) => d.json.session_id === stuck.session_id));
    await h.createSession();
    await waitUntil(async () => (await webhook(hook.webhook_id)).status === 'disabled');
    const all = await events(hook.webhook_id);
    expect(all).toHaveLength(11);
    const stuckEvent = all.find((e) => e.session_id === stuck.session_id);
    expect(stuckEvent).toMatchObject({ status: 'failed', auto_retries_remaining: 0, next_attempt_at: null });
    const kinds = (await h.admin('GET', '/notifications')).body.map((n: any) => n.kind);
    expect(kinds.filter((k: string) => k === 'webhook_disabled')).toHaveLength(1);
    expect(kinds.filter((k: string) => k === 'webhook_event_failed')).toHaveLength(10);
    // The mail names the run's start in UTC, marked as the emulator's (manual) clock.
    const disabledMail = (await h.admin('GET', '/notifications')).body.find((n: any) => n.kind === 'webhook_disabled');
    expect(disabledMail.body).toMatch(/the first of them created at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(emulated\)\./);
    // The attempt that was in flight ends (connection cut): recorded, and the event stays failed.
    rx.releaseHanging();
    await waitUntil(async () => (await event(stuckEvent.webhook_event_id)).attempts.length === 1);
    expect(await event(stuckEvent.webhook_event_id)).toMatchObject({ status: 'failed', attempts: [{ status_code: null, error: expect.any(String) }] });
    expect((await h.admin('GET', '/notifications')).body).toHaveLength(11);
    // Disabled: no new events.
    await h.createSession();
    await settle();
    expect(await events(hook.webhook_id)).toHaveLength(11);
    // Re-enabling resets the run; new sessions trigger again.
    expect((await h.admin('POST', `/webhooks/${hook.webhook_id}/enable`)).body).toMatchObject({ status: 'enabled', consecutive_failures: 0 });
    rx.answer(() => 200);
    await h.createSession();
    await waitUntil(async () => (await events(hook.webhook_id, 'delivered')).length === 1);
  });

  it('disabling: many failures within 3 days do not disable; a delivered event ends the run', async () => {
    rx.answer(() => 500);
    const { hook } = await setup({ retrySchedule: tiny });
    for (let i = 0; i < 12; i++) await h.createSession();
    await waitUntil(async () => (await events(hook.webhook_id, 'failed')).length === 12);
    await advance('2d');
    expect(await webhook(hook.webhook_id)).toMatchObject({ status: 'enabled', consecutive_failures: 12 });
    rx.answer(() => 200);
    await h.createSession();
    await waitUntil(async () => (await events(hook.webhook_id, 'delivered')).length === 1);
    expect((await webhook(hook.webhook_id)).consecutive_failures).toBe(0);
    rx.answer(() => 500);
    await advance('2d');
    await h.createSession();
    await waitUntil(async () => (await events(hook.webhook_id, 'failed')).length === 13);
    expect(await webhook(hook.webhook_id)).toMatchObject({ status: 'enabled', consecutive_failures: 1 });
  });

  it('state table: manual retry after automatic retries → delivered, webhook status unchanged (enabled or disabled)', async () => {
    rx.answer(() => 500);
    const { hook } = await setup({ retrySchedule: tiny });
    await h.createSession();
    await h.createSession();
    await waitUntil(async () => (await events(hook.webhook_id, 'failed')).length === 2);
    const [e1, e2] = await events(hook.webhook_id);
    // A failed manual attempt: still failed, recorded as manual, not a new failure.
    const again = await h.admin('POST', `/webhook-events/${e1.webhook_event_id}/retry`);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ status: 'failed' });
    expect(again.body.attempts.at(-1)).toMatchObject({ attempt: 7, trigger: 'manual', status_code: 500 });
    expect((await webhook(hook.webhook_id)).consecutive_failures).toBe(2);
    rx.answer(() => 200);
    const ok = await h.admin('POST', `/webhook-events/${e1.webhook_event_id}/retry`);
    expect(ok.body).toMatchObject({ status: 'delivered' });
    expect(ok.body.attempts.at(-1)).toMatchObject({ attempt: 8, trigger: 'manual', status_code: 200 });
    expect(rx.deliveries.at(-1)!.headers['webhook-id']).toBe(e1.webhook_event_id);
    expect(rx.deliveries.at(-1)!.json.attempt).toBe(8);
    expect((await webhook(hook.webhook_id)).status).toBe('enabled');
    // On a disabled webhook too, and it stays disabled.
    await h.admin('POST', `/webhooks/${hook.webhook_id}/disable`);
    const ok2 = await h.admin('POST', `/webhook-events/${e2.webhook_event_id}/retry`);
    expect(ok2.body.status).toBe('delivered');
    expect((await webhook(hook.webhook_id)).status).toBe('disabled');
    // Delivered events cannot be retried.
    const dup = await h.admin('POST', `/webhook-events/${e2.webhook_event_id}/retry`);
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('already_delivered');
  });

  it('manual retry: refused while automatic retries are in progress, naming the next attempt', async () => {
    rx.answer(() => 500);
    const { hook } = await setup({ retrySchedule: [HOUR, HOUR, HOUR, HOUR, HOUR] });
    await h.createSession();
    await settle();
    const [e] = await events(hook.webhook_id);
    expect(e.status).toBe('retrying');
    const r = await h.admin('POST', `/webhook-events/${e.webhook_event_id}/retry`);
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ code: 'retries_in_progress', next_attempt_at: e.next_attempt_at });
    expect(r.body.message).toContain(`${e.next_attempt_at.replace('T', ' ').slice(0, 19)} UTC`);
  });

  it('manual retry: on a site moved to free, the refusal says the retries are held by the plan, not that clock advance runs them', async () => {
    rx.answer(() => 500);
    const { hook } = await setup({ retrySchedule: [HOUR, HOUR, HOUR, HOUR, HOUR] });
    await h.createSession();
    await settle();
    const [e] = await events(hook.webhook_id);
    await h.admin('PATCH', `/sites/${h.site.site_id}`, { plan: 'free' });
    const r = await h.admin('POST', `/webhook-events/${e.webhook_event_id}/retry`);
    expect(r.body).toMatchObject({ code: 'retries_in_progress', next_attempt_at: e.next_attempt_at });
    expect(r.body.message).toContain(`held while site ${h.site.site_id} is on the free plan`);
    expect(r.body.message).not.toContain('clock advance');
  });

  it('durability: a pending first attempt imported into a frozen clock at that same time runs at once', async () => {
    const into = harness({ clock: 'frozen' });
    try {
      await new Promise((r) => setTimeout(r, 5)); // the exporting clock is frozen a little later
      rx.answer((d) => (d.n === 0 ? 'hang' : 200));
      h = harness({ clock: 'frozen' });
      const hook = (await h.admin('POST', `/sites/${h.site.site_id}/webhooks`, { url: rx.url })).body;
      const e = (await h.admin('POST', `/webhooks/${hook.webhook_id}/trigger`, {})).body;
      await rx.waitFor((ds) => ds.length === 1);
      const file = (await h.admin('GET', '/state')).body;
      expect((await into.admin('PUT', '/state', file)).status).toBe(200);
      await rx.waitFor((ds) => ds.length === 2);
      expect(rx.deliveries[1].headers['webhook-id']).toBe(e.webhook_event_id);
      await waitUntil(async () => (await into.admin('GET', `/webhook-events/${e.webhook_event_id}`)).body.status === 'delivered');
    } finally {
      await into.close();
    }
  });

  it('durability: an imported retry under a frozen clock runs when `clock advance` reaches its time, as it would have before the export', async () => {
    const into = harness({ clock: 'frozen' });
    try {
      rx.answer(() => 500);
      await new Promise((r) => setTimeout(r, 5)); // the exporting clock is frozen a little later
      h = harness({ clock: 'frozen', retrySchedule: [1000, 2000, 4000, 8000, 16000] });
      const hook = (await h.admin('POST', `/sites/${h.site.site_id}/webhooks`, { url: rx.url })).body;
      for (let i = 0; i < 3; i++) await h.admin('POST', `/webhooks/${hook.webhook_id}/trigger`, {});
      await settle();
      await advance(1000); // the second attempts: each schedules its retry 2 s after its own reading
      const file = (await h.admin('GET', '/state')).body;
      expect((await into.admin('PUT', '/state', file)).status).toBe(200);
      const before = rx.deliveries.length;
      await into.admin('POST', '/clock/advance', { duration: 2000 });
      expect(rx.deliveries.length - before).toBe(3);
    } finally {
      await into.close();
    }
  });

  it('durability: a restart on the same database runs the scheduled attempts', async () => {
    const dbPath = join(tempDir('vtr-wh-'), 'vtr.db');
    rx.answer(() => 500);
    h = harness({ dbPath, clock: 'manual', retrySchedule: [HOUR, HOUR, HOUR, HOUR, HOUR] });
    const hook = (await h.admin('POST', `/sites/${h.site.site_id}/webhooks`, { url: rx.url })).body;
    await h.admin('POST', `/sites/${h.site.site_id}/views`, { name: 'All', filter: 'page_views >= 1', trigger_webhooks: true });
    await h.createSession();
    await settle();
    const [e] = await events(hook.webhook_id);
    expect(e.status).toBe('retrying');
    await h.close();
    rx.answer(() => 200);
    const { createEmulator } = await import('../../src/emulator.js');
    const again = createEmulator({ dbPath, clock: 'manual', retrySchedule: [HOUR, HOUR, HOUR, HOUR, HOUR] });
    try {
      await again.app.request('/_vtr/api/clock/advance', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ duration: '1h' }) });
      const after = await (await again.app.request(`/_vtr/api/webhook-events/${e.webhook_event_id}`)).json();
      expect(after).toMatchObject({ status: 'delivered', attempts: [{ status_code: 500 }, { status_code: 200 }] });
      expect(rx.deliveries.map((d) => d.headers['webhook-id'])).toEqual([e.webhook_event_id, e.webhook_event_id]);
    } finally {
      await again.close();
    }
  });
});

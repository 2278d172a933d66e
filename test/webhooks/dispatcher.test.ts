// The dispatcher with an injected sender and clock: no sockets, no waiting on real retry delays.
import { afterEach, describe, expect, it } from 'vitest';
import { createClock } from '../../src/domain/clock.js';
import { createEventBus, type EmulatorEvent } from '../../src/events/bus.js';
import { createStore, type Store } from '../../src/store/index.js';
import { createSiteService } from '../../src/sites/service.js';
import { createSessionService } from '../../src/sessions/service.js';
import { createWebhookSystem, type WebhookSystem } from '../../src/webhooks/index.js';
import type { SendResult } from '../../src/webhooks/sender.js';
import { waitUntil } from '../helpers/receiver.js';
import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { tempDir } from '../helpers/vtr-process.js';

/** The pid of a process that has already exited (as a crashed server's is). */
const exitedPid = () => spawnSync(process.execPath, ['-e', '0']).pid!;

interface Call {
  url: string;
  headers: Record<string, string>;
  body: string;
  resolve(r: SendResult): void;
}

function setup(opts: { jitter?: boolean; random?: () => number; frozen?: boolean } = {}) {
  let t = Date.UTC(2026, 10, 21, 9, 0, 0);
  const clock = opts.frozen ? createClock('frozen', t, () => t) : createClock('manual', 0, () => t);
  const store: Store = createStore({ path: ':memory:' });
  const bus = createEventBus();
  const published: EmulatorEvent[] = [];
  bus.subscribe((e) => published.push(e));
  const sites = createSiteService({ store, clock });
  const site = sites.bootstrap()!.site;
  const sessions = createSessionService({ store, clock, bus });
  const calls: Call[] = [];
  const send = (url: string, headers: Record<string, string>, body: string) => new Promise<SendResult>((resolve) => calls.push({ url, headers, body, resolve }));
  const make = () =>
    createWebhookSystem({ store, clock, bus, retrySchedule: [60_000, 60_000, 60_000, 60_000, 60_000], retryJitter: opts.jitter, random: opts.random, send, log: () => {} });
  const system = make();
  sessions.addHooks(system.trigger);
  const hook = system.webhooks.create(site.site_id, 'http://receiver.test/hook');
  system.views.create(site.site_id, { name: 'All', filter: 'page_views >= 1', trigger_webhooks: true });
  const pageView = () => sessions.recordPageView(site, { url: 'https://example.com/', ip: '192.0.2.1', user_agent: null, referrer: null, language: null, timezone: null }, { newSession: true }).session;
  return { clock, store, calls, system, make, hook, pageView, published, tick: (ms: number) => void (t += ms) };
}

/** In-process waits: generous for a loaded machine; a timeout says what it saw. */
const WAIT = 20_000;

const OK: SendResult = { ok: true, status_code: 200, error: null };
const FAIL: SendResult = { ok: false, status_code: 500, error: null };

describe('dispatcher', () => {
  const systems: WebhookSystem[] = [];
  afterEach(async () => {
    for (const s of systems.splice(0)) await s.close();
  });

  it('dispatcher: the first attempt starts right after the session change commits, no clock move needed', async () => {
    const { calls, system, pageView, hook, published } = setup();
    systems.push(system);
    const session = pageView();
    await waitUntil(() => calls.length === 1, WAIT, () => `${calls.length} sends`);
    expect(calls[0].url).toBe(hook.url);
    expect(JSON.parse(calls[0].body)).toMatchObject({ session_id: session.session_id, attempt: 1 });
    expect(published.map((e) => e.type)).toContain('webhook_event.created');
    // Announced while the request is still out (a slow endpoint shows as running).
    expect(published.find((e) => e.type === 'webhook_attempt.started')?.data).toMatchObject({ attempt: 1, trigger: 'auto', url: hook.url, session_id: session.session_id });
    expect(published.map((e) => e.type)).not.toContain('webhook_attempt.created');
    calls[0].resolve(OK);
    await waitUntil(() => published.some((e) => e.type === 'webhook_attempt.created'), WAIT);
  });

  it('dispatcher: a manual retry while an attempt runs is refused as running, not with a stale due time', async () => {
    const { calls, system, pageView, tick, store } = setup();
    systems.push(system);
    pageView();
    await waitUntil(() => calls.length === 1, WAIT, () => `${calls.length} sends`);
    const id = store.webhookEvents.list({})[0].webhook_event_id;
    tick(5_000); // the stored due time is now in the past
    expect(system.webhooks.attemptRunning(id)).toBe(true);
    const refused = await system.webhooks.retry(id).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'retries_in_progress', details: { next_attempt_at: null } });
    expect((refused as Error).message).toMatch(/is running now/);
    calls[0].resolve(OK);
    await waitUntil(() => !system.webhooks.attemptRunning(id), WAIT);
    expect(await system.webhooks.retry(id).catch((e: unknown) => (e as { code: string }).code)).toBe('already_delivered');
  });

  it('dispatcher: a failed attempt is retried when the clock reaches the schedule, not before', async () => {
    const { calls, system, pageView, tick, store } = setup();
    systems.push(system);
    pageView();
    await waitUntil(() => calls.length === 1, WAIT, () => `${calls.length} sends`);
    calls[0].resolve(FAIL);
    await waitUntil(() => store.webhookEvents.list({})[0].status === 'retrying', WAIT, () => JSON.stringify(store.webhookEvents.list({}).map((e) => e.status)));
    tick(59_000);
    await system.dispatcher.runDue();
    expect(calls).toHaveLength(1);
    tick(1_000);
    const due = system.dispatcher.runDue();
    await waitUntil(() => calls.length === 2, WAIT, () => `${calls.length} sends`);
    expect(calls[1].headers['webhook-id']).toBe(calls[0].headers['webhook-id']);
    expect(JSON.parse(calls[1].body).attempt).toBe(2);
    calls[1].resolve(OK);
    await due;
  });

  it('dispatcher: a frozen clock advanced by exactly the whole schedule runs every retry, each at its time', async () => {
    const { calls, system, pageView, store, clock } = setup({ frozen: true });
    systems.push(system);
    // Several readings within the frozen millisecond, as a busy test makes before its clock move.
    for (let i = 0; i < 3; i++) pageView();
    await waitUntil(() => calls.length === 3, WAIT, () => `${calls.length} sends`);
    const start = clock.now();
    let answered = 0;
    const answer = setInterval(() => {
      for (; answered < calls.length; answered++) calls[answered].resolve(FAIL);
    }, 1);
    try {
      await system.dispatcher.advanceClock(5 * 60_000);
    } finally {
      clearInterval(answer);
    }
    expect(calls).toHaveLength(18);
    for (const ev of store.webhookEvents.list({})) {
      expect(ev.status).toBe('failed');
      const at = store.webhookEvents.attempts(ev.webhook_event_id).map((a) => Date.parse(`${a.at}Z`) - start);
      expect(at).toEqual([0, 60_000, 120_000, 180_000, 240_000, 300_000]);
    }
  });

  it('retry: refused while retrying, it names the next attempt as every shown time is, and how far to move a frozen clock', async () => {
    const { calls, system, pageView, store } = setup({ frozen: true });
    systems.push(system);
    pageView();
    await waitUntil(() => calls.length === 1, WAIT, () => `${calls.length} sends`);
    calls[0].resolve(FAIL);
    await waitUntil(() => store.webhookEvents.list({})[0].status === 'retrying', WAIT);
    const id = store.webhookEvents.list({})[0].webhook_event_id;
    const refused = (await system.webhooks.retry(id).catch((e: unknown) => e)) as Error & { details: Record<string, unknown> };
    expect(refused.message).toContain('the next automatic attempt is at 2026-11-21 09:01:00 UTC (emulated), 1m from now');
    expect(refused.message).toContain('`vtr clock advance 1m` runs it');
    // The API's field keeps the wire format.
    expect(refused.details.next_attempt_at).toMatch(/^2026-11-21T09:01:00\.\d{6}$/);
    // Moving the clock by what it says runs the attempt.
    const moved = system.dispatcher.advanceClock(60_000);
    await waitUntil(() => calls.length === 2, WAIT, () => `${calls.length} sends`);
    calls[1].resolve(OK);
    await moved;
    expect(store.webhookEvents.get(id)?.status).toBe('delivered');
  });

  it('retry: refused while retrying on a manual clock, it says the attempt runs by itself then, or a clock move runs it now', async () => {
    const { calls, system, pageView, store, tick } = setup();
    systems.push(system);
    pageView();
    await waitUntil(() => calls.length === 1, WAIT, () => `${calls.length} sends`);
    calls[0].resolve(FAIL);
    await waitUntil(() => store.webhookEvents.list({})[0].status === 'retrying', WAIT);
    tick(15_000);
    const id = store.webhookEvents.list({})[0].webhook_event_id;
    const refused = (await system.webhooks.retry(id).catch((e: unknown) => e)) as Error;
    // Rounded up to whole seconds (the due time has microseconds past 09:01:00): the move reaches it.
    expect(refused.message).toMatch(/the next automatic attempt is at 2026-11-21 09:01:00 UTC \(emulated\), (45|46)s from now\. It runs then, or `vtr clock advance (45|46)s` runs it now/);
    const by = Number(/clock advance (\d+)s/.exec(refused.message)![1]) * 1000;
    const moved = system.dispatcher.advanceClock(by);
    await waitUntil(() => calls.length === 2, WAIT, () => `${calls.length} sends`);
    calls[1].resolve(OK);
    await moved;
  });

  it('dispatcher: jitter uses the injected randomness', async () => {
    const { calls, system, pageView, store } = setup({ jitter: true, random: () => 0 });
    systems.push(system);
    pageView();
    await waitUntil(() => calls.length === 1, WAIT, () => `${calls.length} sends`);
    calls[0].resolve(FAIL);
    const ev = await waitUntil(() => store.webhookEvents.list({}).find((e) => e.status === 'retrying'), WAIT, () => JSON.stringify(store.webhookEvents.list({}).map((e) => e.status)));
    const [a] = store.webhookEvents.attempts(ev.webhook_event_id);
    expect(ev.next_attempt_us! - Date.parse(`${a.at}Z`) * 1000).toBeGreaterThanOrEqual(48_000_000 - 1000);
    expect(ev.next_attempt_us! - Date.parse(`${a.at}Z`) * 1000).toBeLessThanOrEqual(48_000_000 + 1000);
  });

  it('dispatcher: close waits for the attempt in flight and records it', async () => {
    const { calls, system, pageView, store } = setup();
    pageView();
    await waitUntil(() => calls.length === 1, WAIT, () => `${calls.length} sends`);
    const closed = system.close();
    let done = false;
    void closed.then(() => (done = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(done).toBe(false);
    calls[0].resolve(OK);
    await closed;
    expect(store.webhookEvents.list({})[0].status).toBe('delivered');
  });

  it('dispatcher: an attempt cut off by a crash is still due and runs again after restart, same webhook-id', async () => {
    const { calls, system, make, pageView, store } = setup();
    pageView();
    await waitUntil(() => calls.length === 1, WAIT, () => `${calls.length} sends`);
    system.dispatcher.pause(); // "crash": its result never reaches the database
    const [ev] = store.webhookEvents.list({});
    // …and its process is gone: its claim names a pid that has exited.
    store.db.prepare('UPDATE webhook_claims SET owner = ?, pid = ?').run('crashed', exitedPid());
    expect(ev).toMatchObject({ status: 'pending', next_attempt_us: expect.any(Number) });
    const restarted = make();
    systems.push(restarted);
    restarted.dispatcher.start();
    await waitUntil(() => calls.length === 2, WAIT, () => `${calls.length} sends`);
    expect(calls[1].headers['webhook-id']).toBe(calls[0].headers['webhook-id']);
    expect(JSON.parse(calls[1].body).attempt).toBe(1);
    calls[1].resolve(OK);
    await waitUntil(() => store.webhookEvents.get(ev.webhook_event_id)?.status === 'delivered', WAIT, () => JSON.stringify(store.webhookEvents.list({}).map((e) => e.status)));
  });

  it('dispatcher: two servers on one database file send each attempt once', async () => {
    const file = join(tempDir('vtr-claims-'), 'vtr.db');
    const t = Date.UTC(2026, 10, 21, 9, 0, 0);
    const sent = new Map<string, number>();
    // A receiver that takes a moment, so attempts of the two servers overlap.
    const send = async (_url: string, headers: Record<string, string>) => {
      sent.set(headers['webhook-id'], (sent.get(headers['webhook-id']) ?? 0) + 1);
      await new Promise((r) => setTimeout(r, 5));
      return OK;
    };
    const clock = createClock('manual', 0, () => t); // one time for both, as real servers share
    const server = () => {
      const store = createStore({ path: file });
      const bus = createEventBus();
      const system = createWebhookSystem({ store, clock, bus, send, log: () => {} });
      const sessions = createSessionService({ store, clock, bus });
      sessions.addHooks(system.trigger);
      return { store, clock, system, sessions, sites: createSiteService({ store, clock }) };
    };
    const a = server();
    const b = server();
    const site = a.sites.bootstrap()!.site;
    a.system.webhooks.create(site.site_id, 'http://receiver.test/hook');
    a.system.views.create(site.site_id, { name: 'All', filter: 'page_views >= 1', trigger_webhooks: true });
    try {
      for (let i = 0; i < 40; i++) {
        a.sessions.recordPageView(site, { url: `https://example.com/${i}`, ip: '192.0.2.1', user_agent: null, referrer: null, language: null, timezone: null }, { newSession: true });
        b.system.dispatcher.kick(); // b finds the same due events at once
        await new Promise((r) => setImmediate(r));
      }
      await waitUntil(() => a.store.webhookEvents.list({ status: 'delivered' }).length === 40, WAIT, () => `${a.store.webhookEvents.list({ status: 'delivered' }).length} delivered`);
      expect(sent.size).toBe(40);
      expect([...sent.values()].filter((n) => n > 1)).toEqual([]);
      expect(a.store.db.prepare('SELECT count(*) AS n FROM webhook_claims').get()).toEqual({ n: 0 });
    } finally {
      for (const s of [a, b]) {
        await s.system.close();
        s.store.close();
      }
    }
  });

  it('dispatcher: an event claimed by another live server waits for it; a claim of an exited process is taken at once', async () => {
    const { calls, system, pageView, store, make } = setup();
    system.dispatcher.pause();
    pageView();
    const [ev] = store.webhookEvents.list({});
    const claim = (pid: number) =>
      store.db
        .prepare('INSERT OR REPLACE INTO webhook_claims (webhook_event_id, owner, host, pid, expires_ms) VALUES (?, ?, ?, ?, ?)')
        .run(ev.webhook_event_id, `other:${pid}`, hostname(), pid, Date.UTC(2030, 0, 1));
    claim(process.ppid); // alive: the process that started this test
    const other = make();
    systems.push(other);
    other.dispatcher.start();
    await new Promise((r) => setTimeout(r, 100));
    expect(calls).toHaveLength(0);
    claim(exitedPid());
    other.dispatcher.kick();
    await waitUntil(() => calls.length === 1, WAIT, () => `${calls.length} sends`);
    calls[0].resolve(OK);
    await waitUntil(() => store.webhookEvents.get(ev.webhook_event_id)?.status === 'delivered', WAIT, () => JSON.stringify(store.webhookEvents.list({}).map((e) => e.status)));
  });
});

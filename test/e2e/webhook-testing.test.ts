// Testing a receiver with the built binary: a frozen clock (nothing fires by itself; `clock advance`
// runs every attempt on the way, in order), wall-clock signatures that standardwebhooks accepts
// after `clock advance 3d`, and `vtr webhooks trigger`.
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, startServer, tempDir, type ServerProcess } from '../helpers/vtr-process.js';
import { startReceiver, type Answer, type Delivery, type Receiver } from '../helpers/receiver.js';

const cleanup: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

async function admin<T = any>(s: ServerProcess, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${s.origin}/_vtr/api${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await res.json();
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(data)}`);
  return data as T;
}

async function serve(args: string[]): Promise<ServerProcess> {
  const s = await startServer(args);
  cleanup.push(() => s.stop('SIGKILL'));
  return s;
}

async function receiver(answer: (d: Delivery) => Answer): Promise<Receiver> {
  const r = await startReceiver({ answer });
  cleanup.push(() => r.close());
  return r;
}

async function hookTo(s: ServerProcess, url: string): Promise<{ webhook_id: string; secret: string; site_id: string }> {
  const site = (await admin(s, 'GET', '/sites/default')).site_id;
  return admin(s, 'POST', `/sites/${site}/webhooks`, { url });
}

describe('frozen clock and webhooks trigger (built CLI)', () => {
  it('trigger: under a frozen clock the first attempt runs at once, no retry runs by itself, clock advance runs them all in order', async () => {
    const s = await serve(['--memory', '--clock', 'frozen']);
    const r = await receiver((d) => (d.n < 3 ? 500 : 200));
    const hook = await hookTo(s, r.url);
    const before = await admin(s, 'GET', '/clock');
    expect(before.mode).toBe('frozen');

    const trig = await runCli(['webhooks', 'trigger', hook.webhook_id], { env: s.env });
    expect(trig.code, trig.stderr).toBe(0);
    const eventId = trig.stdout.trim();
    expect(eventId).toMatch(/^msg_/);
    expect(trig.stderr).toContain('new, from test values');
    await r.waitFor((ds) => ds.length >= 1);

    // Real time passes; the frozen clock does not, so the retry 2 s later never falls due.
    await sleep(3_000);
    const still = await admin(s, 'GET', `/webhook-events/${eventId}`);
    expect(still.attempts).toHaveLength(1);
    expect(still.status).toBe('retrying');
    expect(r.deliveries).toHaveLength(1);
    expect((await admin(s, 'GET', '/clock')).now).toBe(before.now);

    const adv = await runCli(['clock', 'advance', '1h'], { env: s.env });
    expect(adv.code, adv.stderr).toBe(0);
    expect(adv.stderr).toMatch(/Ran 3 webhook attempts on the way/);
    for (const n of [2, 3, 4]) expect(adv.stderr).toContain(`${eventId} #${n}`);
    const done = await admin(s, 'GET', `/webhook-events/${eventId}`);
    expect(done.status).toBe('delivered');
    expect(done.attempts.map((a: { attempt: number }) => a.attempt)).toEqual([1, 2, 3, 4]);
    const ats = done.attempts.map((a: { at: string }) => a.at);
    expect([...ats].sort()).toEqual(ats);
    expect(r.deliveries.map((d) => d.json.attempt)).toEqual([1, 2, 3, 4]);
    // The payload keeps the emulator's time; the clock stands still again after the move.
    expect(done.triggered_at.slice(0, 19)).toBe(before.now.slice(0, 19));
    const after = await admin(s, 'GET', '/clock');
    expect(Date.parse(`${after.now}Z`) - Date.parse(`${before.now}Z`)).toBe(3_600_000);
  }, 60_000);

  it('trigger: the signature verifies with standardwebhooks after clock advance 3d', async () => {
    const s = await serve(['--memory', '--clock', 'frozen']);
    const r = await receiver(() => 200);
    const hook = await hookTo(s, r.url);
    const adv = await runCli(['clock', 'advance', '3d'], { env: s.env });
    expect(adv.code, adv.stderr).toBe(0);
    const trig = await runCli(['webhooks', 'trigger', hook.webhook_id, '--json'], { env: s.env });
    expect(trig.code, trig.stderr).toBe(0);
    const event = JSON.parse(trig.stdout);
    await r.waitFor((ds) => ds.length >= 1);
    const d = r.deliveries[0];
    const headers = Object.fromEntries(Object.entries(d.headers).map(([k, v]) => [k, String(v)]));
    expect(() => new Webhook(hook.secret).verify(d.body, headers)).not.toThrow();
    expect(Math.abs(Number(headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(300);
    // The event itself is three days ahead.
    expect(Date.parse(`${event.triggered_at}Z`) - Date.now()).toBeGreaterThan(3 * 86_400_000 - 60_000);
    expect(d.json).toMatchObject({ hook_type: 'saved_view', webhook_event_id: event.webhook_event_id, saved_view_id: 'view_test', attempt: 1 });
  }, 60_000);

  it('trigger: --session and --view are used; unknown ones are 404; a disabled webhook is refused with webhook_disabled', async () => {
    const s = await serve(['--memory']);
    const r = await receiver(() => 200);
    const hook = await hookTo(s, r.url);
    const view = await admin(s, 'POST', `/sites/${hook.site_id}/views`, { name: 'Risky', filter: 'risk_level = invalid' });
    const session = await admin(s, 'POST', `/sites/${hook.site_id}/sessions`, {});
    const ok = await runCli(['webhooks', 'trigger', hook.webhook_id, '--session', session.session_id, '--view', view.saved_view_id, '--json'], { env: s.env });
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ session_id: session.session_id, saved_view_id: view.saved_view_id, saved_view_name: 'Risky' });
    await r.waitFor((ds) => ds.length >= 1);
    expect(r.deliveries[0].json).toMatchObject({ session_id: session.session_id, saved_view_id: view.saved_view_id });

    const noSession = await runCli(['webhooks', 'trigger', hook.webhook_id, '--session', 'ses_nope'], { env: s.env });
    expect(noSession.code).toBe(1);
    expect(noSession.stderr).toMatch(/session ses_nope .*not found/);
    const noView = await runCli(['webhooks', 'trigger', hook.webhook_id, '--view', 'view_nope'], { env: s.env });
    expect(noView.code).toBe(1);
    expect(noView.stderr).toMatch(/saved view view_nope .*not found/);

    await admin(s, 'POST', `/webhooks/${hook.webhook_id}/disable`);
    const res = await fetch(`${s.origin}/_vtr/api/webhooks/${hook.webhook_id}/trigger`, { method: 'POST' });
    expect(res.status).toBe(409);
    expect(((await res.json()) as { code: string }).code).toBe('webhook_disabled');
    const refused = await runCli(['webhooks', 'trigger', hook.webhook_id], { env: s.env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/is disabled.*vtr webhooks enable/);
  }, 60_000);

  it('serve: a frozen clock keeps its time across restarts', async () => {
    const db = join(tempDir('vtr-frozen-'), 'vtr.db');
    const one = await serve(['--db', db, '--clock', 'frozen']);
    await runCli(['clock', 'advance', '2h'], { env: one.env });
    const kept = (await admin(one, 'GET', '/clock')).now;
    await one.stop();
    await sleep(1_100);
    const two = await serve(['--db', db, '--clock', 'frozen']);
    const shown = await runCli(['clock', '--json'], { env: two.env });
    expect(JSON.parse(shown.stdout)).toMatchObject({ now: kept, mode: 'frozen' });
  }, 60_000);
});

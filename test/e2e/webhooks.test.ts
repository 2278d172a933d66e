// Webhooks end to end with the built binary: crash safety (SIGKILL mid-delivery), the CLI's
// retry, disabling under `vtr clock advance` (tail: webhooks-tail.test.ts, receive: webhook-receive.test.ts).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/vtr-process.js';
import { freePort } from '../helpers/cli-process.js';
import { waitUntil } from '../helpers/receiver.js';
import { webhooksE2e } from '../helpers/webhooks-e2e.js';

const { admin, serve, receiver, wire, newSession, spawnCli } = webhooksE2e();

describe('webhooks end to end (built binary)', () => {
  it('crash: events in flight or scheduled when the server is SIGKILLed are delivered after restart, same webhook-id', async () => {
    const db = join(tempDir(), 'vtr.db');
    const slow = await receiver({ answer: () => 'hang' });
    const downPort = await freePort();
    const args = ['--db', db, '--webhook-timeout', '60s', '--retry-schedule', '2s,2s,2s,2s,2s'];
    let s = await serve(args);
    const a = await wire(s, slow.url);
    const b = await wire(s, `http://127.0.0.1:${downPort}/hook`, { view: false });
    await newSession(s);
    await newSession(s);
    // A's two attempts are in flight (no answer); B's first attempts failed and wait to retry.
    await slow.waitFor((ds) => ds.length === 2);
    await waitUntil(async () => (await admin<any[]>(s, 'GET', `/webhooks/${b.webhook_id}/events?status=retrying`)).length === 2);
    const aIds = slow.deliveries.map((d) => d.headers['webhook-id']).sort();
    const bIds = (await admin<any[]>(s, 'GET', `/webhooks/${b.webhook_id}/events`)).map((e) => e.webhook_event_id).sort();
    await s.stop('SIGKILL');

    slow.answer(() => 200);
    const up = await receiver({ port: downPort });
    s = await serve(args);
    await waitUntil(async () => (await admin<any[]>(s, 'GET', `/webhooks/${a.webhook_id}/events?status=delivered`)).length === 2);
    await waitUntil(async () => (await admin<any[]>(s, 'GET', `/webhooks/${b.webhook_id}/events?status=delivered`)).length === 2);
    const redelivered = slow.deliveries.slice(2).map((d) => d.headers['webhook-id']).sort();
    expect(redelivered).toEqual(aIds);
    expect(up.deliveries.map((d) => d.headers['webhook-id']).sort()).toEqual(bIds);
  });

  it('crash under --clock frozen: a first attempt cut off by SIGKILL runs again at restart, without a clock move', async () => {
    const db = join(tempDir(), 'vtr.db');
    const rx = await receiver({ answer: () => 'hang' });
    const args = ['--db', db, '--clock', 'frozen', '--webhook-timeout', '60s'];
    let s = await serve(args);
    const hook = await wire(s, rx.url, { view: false });
    const e = await admin(s, 'POST', `/webhooks/${hook.webhook_id}/trigger`, {});
    await rx.waitFor((ds) => ds.length === 1);
    await s.stop('SIGKILL');
    rx.answer(() => 200);
    s = await serve(args);
    await rx.waitFor((ds) => ds.length === 2);
    expect(rx.deliveries[1].headers['webhook-id']).toBe(e.webhook_event_id);
    expect(rx.deliveries[1].json).toMatchObject({ attempt: 1 });
    await waitUntil(async () => (await admin(s, 'GET', `/webhook-events/${e.webhook_event_id}`)).status === 'delivered');
  });

  it('retry: the CLI retries a failed event once, exit 1 while it fails, 0 once delivered; 409s explained', async () => {
    const rx = await receiver({ answer: () => 500 });
    const s = await serve(['--memory', '--clock', 'manual', '--retry-schedule', '10ms,10ms,10ms,10ms,10ms']);
    const hook = await wire(s, rx.url);
    await newSession(s);
    const [e] = await waitUntil(async () => {
      const evs = await admin<any[]>(s, 'GET', `/webhooks/${hook.webhook_id}/events?status=failed`);
      return evs.length ? evs : null;
    });
    const stillFailing = await runCli(['webhooks', 'retry', e.webhook_event_id], { env: s.env });
    expect(stillFailing.code).toBe(1);
    expect(stillFailing.stderr).toMatch(/still failed|attempt failed/);
    rx.answer(() => 200);
    const ok = await runCli(['webhooks', 'retry', e.webhook_event_id, '--json'], { env: s.env });
    expect(ok.code).toBe(0);
    const after = JSON.parse(ok.stdout);
    expect(after).toMatchObject({ webhook_event_id: e.webhook_event_id, status: 'delivered' });
    expect(after.attempts.at(-1)).toMatchObject({ attempt: 8, trigger: 'manual', status_code: 200 });
    const again = await runCli(['webhooks', 'retry', e.webhook_event_id], { env: s.env });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already_delivered');
    // An event still retrying: 409 naming the next automatic attempt.
    rx.answer(() => 500);
    await admin(s, 'PATCH', `/webhooks/${hook.webhook_id}`, { url: rx.url });
    const slowRetries = await serve(['--memory', '--clock', 'manual', '--retry-schedule', '1h,1h,1h,1h,1h']);
    const hook2 = await wire(slowRetries, rx.url);
    await newSession(slowRetries);
    const [r] = await waitUntil(async () => {
      const evs = await admin<any[]>(slowRetries, 'GET', `/webhooks/${hook2.webhook_id}/events?status=retrying`);
      return evs.length ? evs : null;
    });
    const busy = await runCli(['webhooks', 'retry', r.webhook_event_id], { env: slowRetries.env });
    expect(busy.code).toBe(1);
    expect(busy.stderr).toContain('retries_in_progress');
    expect(busy.stderr).toContain(`${r.next_attempt_at.replace('T', ' ').slice(0, 19)} UTC (emulated)`);
    expect(busy.stderr).toMatch(/It runs then, or `vtr clock advance \S+` runs it now/);
    // --all-failed retries every failed event of the webhook.
    for (let i = 0; i < 5; i++) await runCli(['clock', 'advance', '61m'], { env: slowRetries.env });
    expect((await admin(slowRetries, 'GET', `/webhook-events/${r.webhook_event_id}`)).status).toBe('failed');
    rx.answer(() => 200);
    const all = await runCli(['webhooks', 'retry', '--all-failed', '--webhook', hook2.webhook_id, '--json'], { env: slowRetries.env });
    expect(all.code).toBe(0);
    expect(JSON.parse(all.stdout)).toEqual([expect.objectContaining({ webhook_event_id: r.webhook_event_id, status: 'delivered' })]);
    // Disabling stops a retrying event (failed); retrying it by hand says the webhook is still disabled.
    rx.answer(() => 500);
    await newSession(slowRetries);
    await waitUntil(async () => (await admin<any[]>(slowRetries, 'GET', `/webhooks/${hook2.webhook_id}/events?status=retrying`)).length === 1);
    expect((await runCli(['webhooks', 'disable', hook2.webhook_id], { env: slowRetries.env })).code).toBe(0);
    const twice = await runCli(['webhooks', 'disable', hook2.webhook_id], { env: slowRetries.env });
    expect(twice.stderr).toContain('already disabled');
    rx.answer(() => 200);
    const byHand = await runCli(['webhooks', 'retry', '--all-failed', '--webhook', hook2.webhook_id], { env: slowRetries.env });
    expect(byHand.code).toBe(0);
    expect(byHand.stderr).toContain(`still disabled and gets no new events: vtr webhooks enable ${hook2.webhook_id}`);
  });

  it('retry: one event delivered by hand on a disabled webhook says the webhook is still disabled, as --all-failed does', async () => {
    const rx = await receiver({ answer: () => 500 });
    const s = await serve(['--memory', '--clock', 'frozen']);
    const hook = await wire(s, rx.url, { view: false });
    const id = (await runCli(['webhooks', 'trigger', hook.webhook_id], { env: s.env })).stdout.trim();
    await waitUntil(async () => (await admin(s, 'GET', `/webhook-events/${id}`)).status === 'retrying');
    expect((await runCli(['webhooks', 'disable', hook.webhook_id], { env: s.env })).code).toBe(0);
    rx.answer(() => 200);
    const byHand = await runCli(['webhooks', 'retry', id], { env: s.env });
    expect(byHand.code, byHand.stderr).toBe(0);
    expect(byHand.stdout).toContain(`Delivered ${id}`);
    expect(byHand.stderr).toContain(`${hook.webhook_id} is still disabled and gets no new events: vtr webhooks enable ${hook.webhook_id}`);
    // Enabled: nothing more is said.
    expect((await runCli(['webhooks', 'enable', hook.webhook_id], { env: s.env })).code).toBe(0);
    rx.answer(() => 500);
    const other = (await runCli(['webhooks', 'trigger', hook.webhook_id], { env: s.env })).stdout.trim();
    await waitUntil(async () => (await admin(s, 'GET', `/webhook-events/${other}`)).status === 'retrying');
    expect((await runCli(['clock', 'advance', '12h'], { env: s.env })).code).toBe(0);
    await waitUntil(async () => (await admin(s, 'GET', `/webhook-events/${other}`)).status === 'failed');
    rx.answer(() => 200);
    const enabled = await runCli(['webhooks', 'retry', other], { env: s.env });
    expect(enabled.code, enabled.stderr).toBe(0);
    expect(enabled.stderr).not.toContain('still disabled');
  });

  it('serve: a start that fails (port in use) delivers nothing; the next good start delivers what is due', async () => {
    const rx = await receiver({ answer: () => 500 });
    const db = join(tempDir(), 'vtr.db');
    const first = await serve(['--db', db, '--retry-schedule', '1s,1s,1s,1s,1s']);
    const hook = await wire(first, rx.url);
    await newSession(first);
    const retrying = await waitUntil(async () => {
      const [ev] = await admin(first, 'GET', `/webhooks/${hook.webhook_id}/events`);
      return ev?.status === 'retrying' && ev;
    });
    expect(await first.stop('SIGTERM')).toBe(0);
    // The failing start below finds the retry due: had it run the dispatcher, it would have sent it.
    const dueAt = Date.parse(`${retrying.next_attempt_at.slice(0, 23)}Z`);
    await waitUntil(() => Date.now() > dueAt);
    rx.answer(() => 200);
    const busy = await serve(['--memory']);
    const failed = await runCli(['serve', '--db', db, '--port', new URL(busy.origin).port], { env: {} });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/in use/);
    const failedEnded = Date.now();
    const good = await serve(['--db', db]);
    const delivered = await waitUntil(async () => {
      const ev = await admin(good, 'GET', `/webhook-events/${retrying.webhook_event_id}`);
      return ev.status === 'delivered' && ev;
    });
    // The second attempt is the good start's (made after the failing one had ended) and the only
    // one since the first: the failing start neither recorded one nor sent one unrecorded.
    expect(delivered.attempts.map((a: { attempt: number; status_code: number }) => [a.attempt, a.status_code])).toEqual([[1, 500], [2, 200]]);
    expect(Date.parse(`${delivered.attempts[1].at.slice(0, 23)}Z`)).toBeGreaterThanOrEqual(failedEnded);
    expect(rx.deliveries.map((d) => d.json.attempt)).toEqual([1, 2]);
  });

  it('disabling: 10 failed events over 3 days of `vtr clock advance` disable the webhook; enable resets it', async () => {
    const rx = await receiver({ answer: () => 500 });
    const s = await serve(['--memory', '--clock', 'manual', '--retry-schedule', '10ms,10ms,10ms,10ms,10ms']);
    const hook = await wire(s, rx.url);
    const failed = async () => (await admin<any[]>(s, 'GET', `/webhooks/${hook.webhook_id}/events?status=failed`)).length;
    const tail = spawnCli(['webhooks', 'tail', '--no-color'], s.env);
    await tail.waitErr(/Tailing/);
    await newSession(s);
    await waitUntil(async () => (await failed()) === 1);
    // Disabled by hand after one failure: the tail does not pass it off as the disabling rule.
    expect((await runCli(['webhooks', 'disable', hook.webhook_id], { env: s.env })).code).toBe(0);
    await waitUntil(() => tail.stdout().includes(`webhook ${hook.webhook_id} disabled; its pending events are failed`), 20_000, () => tail.stdout());
    expect((await runCli(['webhooks', 'enable', hook.webhook_id], { env: s.env })).code).toBe(0);
    await newSession(s);
    await waitUntil(async () => (await failed()) === 2);
    expect((await runCli(['clock', 'advance', '3d'], { env: s.env })).code).toBe(0);
    for (let i = 0; i < 9; i++) await newSession(s);
    await waitUntil(async () => (await admin(s, 'GET', `/webhooks/${hook.webhook_id}`)).status === 'disabled');
    await waitUntil(() => tail.stdout().includes(`webhook ${hook.webhook_id} disabled after 10 failures in a row`), 20_000, () => tail.stdout());
    expect(await tail.stop()).toBe(0);
    const list = JSON.parse((await runCli(['webhooks', 'list', '--json'], { env: s.env })).stdout);
    expect(list[0]).toMatchObject({ webhook_id: hook.webhook_id, status: 'disabled', consecutive_failures: 10 });
    const outbox = JSON.parse((await runCli(['notifications', 'list', '--json'], { env: s.env })).stdout);
    expect(outbox[0]).toMatchObject({ kind: 'webhook_disabled', webhook_id: hook.webhook_id, to: 'owner@example.com' });
    const enabled = await runCli(['webhooks', 'enable', hook.webhook_id, '--json'], { env: s.env });
    expect(JSON.parse(enabled.stdout)).toMatchObject({ status: 'enabled', consecutive_failures: 0 });
  });

  it('clock advance: names the webhook attempts it ran on the way on stderr; stdout stays the clock', async () => {
    const rx = await receiver({ answer: () => 500 });
    const s = await serve(['--memory', '--clock', 'manual']); // retries after 2, 4, 8, 16, 32 s
    const hook = await wire(s, rx.url);
    await newSession(s);
    await waitUntil(async () => (await admin<any[]>(s, 'GET', `/webhooks/${hook.webhook_id}/events`))[0]?.attempts.length === 1);
    const moved = await runCli(['clock', 'advance', '10s'], { env: s.env });
    expect(moved.code).toBe(0);
    expect(moved.stdout).toMatch(/offset_ms:\s+10000/);
    expect(moved.stderr).toMatch(new RegExp(`#2 {2}HTTP 500 {2}→ retrying, next \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2} UTC \\(emulated\\) {2}${hook.webhook_id} ${rx.url}`));
    expect(moved.stderr).toMatch(/#3 {2}HTTP 500 {2}→ retrying/);
    expect(moved.stderr).toContain('Ran 2 webhook attempts on the way.');
    const json = await runCli(['clock', 'advance', '1s', '--json'], { env: s.env });
    expect(JSON.parse(json.stdout)).toEqual({ now: expect.any(String), mode: 'manual', offset_ms: 11_000 });
    expect(json.stderr).toContain('No webhook attempt was due on the way.');
    expect((await runCli(['clock', 'advance', '1s', '--quiet'], { env: s.env })).stderr).toBe('');
  });

  it('views and webhooks CLI: a bad filter shows the caret (exit 2); a free site refuses webhooks (exit 1)', async () => {
    const s = await serve(['--memory']);
    const bad = await runCli(['views', 'create', '--name', 'x', '--filter', 'risk_level = = invalid'], { env: s.env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('risk_level = = invalid\n');
    expect(bad.stderr).toMatch(/\n\s+\^/);
    const missing = await runCli(['views', 'create', '--filter', 'channel = paid'], { env: s.env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--name');
    const free = await admin(s, 'POST', '/sites', { name: 'Free', plan: 'free' });
    const refused = await runCli(['webhooks', 'create', '--url', 'http://127.0.0.1:9/', '--site', free.site_id], { env: s.env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('plan_required');
    const views = await runCli(['views', 'create', '--name', 'Bad', '--filter', 'risk_level = invalid', '--trigger-webhooks', '--json'], { env: s.env });
    expect(JSON.parse(views.stdout)).toMatchObject({ name: 'Bad', trigger_webhooks: true });
    const list = JSON.parse((await runCli(['views', 'list', '--json'], { env: s.env })).stdout);
    expect(list).toHaveLength(1);
  });
  it('clock advance: a server stopping mid-move exits 1 saying where the clock stopped, after listing the attempts that ran', async () => {
    const rx = await receiver({ answer: () => 500 });
    const s = await serve(['--memory', '--clock', 'frozen']);
    await wire(s, rx.url);
    await newSession(s);
    await rx.waitFor((ds) => ds.length === 1);
    // The retry due 2 s on hangs until the server has been told to stop.
    rx.answer(() => 'hang');
    const move = runCli(['clock', 'advance', '1h'], { env: s.env });
    await rx.waitFor((ds) => ds.length === 2);
    const stopped = s.stop('SIGTERM');
    await waitUntil(() => /SIGTERM/.test(s.stderr()));
    rx.releaseHanging();
    expect(await stopped).toBe(0);
    const r = await move;
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/msg_\w+ #2 /);
    expect(r.stderr).toMatch(/Ran 1 webhook attempt on the way/);
    expect(r.stderr).toMatch(/the clock stopped at .*vtr clock advance 59m5\d.*shutting_down/s);
  });
});

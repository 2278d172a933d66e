// `vtr webhooks tail` end to end with the built binary: --json, reconnection after a restart,
// times under a test clock, attempts shown as they go out.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/vtr-process.js';
import { freePort } from '../helpers/cli-process.js';
import { waitUntil } from '../helpers/receiver.js';
import { webhooksE2e } from '../helpers/webhooks-e2e.js';

const { admin, serve, receiver, wire, newSession, spawnCli } = webhooksE2e();

describe('webhooks tail end to end (built binary)', () => {
  it('tail: --json prints one attempt per line and reconnects when the server restarts', async () => {
    const rx = await receiver();
    const db = join(tempDir(), 'vtr.db');
    const port = await freePort();
    let s = await serve(['--db', db, '--port', String(port)]);
    const hook = await wire(s, rx.url);
    const tail = spawnCli(['webhooks', 'tail', '--json', '--webhook', hook.webhook_id], s.env);
    await tail.waitErr(/Tailing/); // printed once the stream is subscribed
    await newSession(s);
    await waitUntil(() => tail.lines().length === 1, 20_000, () => tail.stdout());
    await s.stop('SIGTERM');
    await tail.waitErr(/lost the emulator/);
    const seen = tail.stderr().length;
    s = await serve(['--db', db, '--port', String(port)]);
    await waitUntil(() => /reconnected/.test(tail.stderr().slice(seen)), 20_000, () => tail.stderr());
    await newSession(s);
    await waitUntil(() => tail.lines().length === 2, 20_000, () => tail.stdout());
    expect(await tail.stop()).toBe(0);
    const lines = tail.lines();
    for (const l of lines) {
      expect(l).toMatchObject({ attempt: 1, trigger: 'auto', status_code: 200, error: null, webhook_id: hook.webhook_id, event_status: 'delivered' });
      expect(typeof l.duration_ms).toBe('number');
    }
    expect(lines[0].webhook_event_id).not.toBe(lines[1].webhook_event_id);
  });

  it('tail: after the server comes back with --clock frozen, its times are marked emulated', async () => {
    const rx = await receiver();
    const db = join(tempDir(), 'vtr.db');
    const port = await freePort();
    let s = await serve(['--db', db, '--port', String(port)]);
    const hook = await wire(s, rx.url, { view: false });
    const tail = spawnCli(['webhooks', 'tail', '--no-color'], s.env);
    await tail.waitErr(/Tailing/);
    await s.stop('SIGTERM');
    await tail.waitErr(/lost the emulator/);
    const seen = tail.stderr().length;
    s = await serve(['--db', db, '--port', String(port), '--clock', 'frozen']);
    await waitUntil(() => /reconnected/.test(tail.stderr().slice(seen)), 20_000, () => tail.stderr());
    await admin(s, 'POST', `/webhooks/${hook.webhook_id}/trigger`, {});
    await waitUntil(() => / ✓ msg_/.test(tail.stdout()), 20_000, () => tail.stdout());
    expect(await tail.stop()).toBe(0);
    const done = tail.stdout().split('\n').find((l) => l.includes(' ✓ msg_'))!;
    expect(done).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(emulated\) ✓ /);
  });

  it('tail: without --json, an attempt to a slow endpoint shows as going out before its result', async () => {
    const rx = await receiver({ answer: () => ({ status: 200, delayMs: 1500 }) });
    const s = await serve(['--memory']);
    const hook = await wire(s, rx.url);
    const tail = spawnCli(['webhooks', 'tail', '--webhook', hook.webhook_id], s.env);
    await tail.waitErr(/Tailing/);
    // Created from the CLI: it names what the session set off.
    const made = await runCli(['sessions', 'create'], { env: s.env });
    expect(made.stderr).toMatch(new RegExp(`→ matched view "All": webhook event msg_\\S+ for ${hook.webhook_id}`));
    await waitUntil(() => /✓ msg_\S+ #1 auto {2}HTTP 200/.test(tail.stdout()), 20_000, () => tail.stdout());
    // The attempt going out is printed before its result.
    const out = tail.stdout();
    expect(out.search(/→ msg_\S+ #1 auto {2}POST /)).toBeGreaterThanOrEqual(0);
    expect(out.search(/→ msg_\S+ #1 auto {2}POST /)).toBeLessThan(out.search(/✓ msg_\S+ #1 auto {2}HTTP 200/));
    // A webhook switched off (by hand here; by the disabling rule alike) shows in the tail too.
    expect((await runCli(['webhooks', 'disable', hook.webhook_id], { env: s.env })).code).toBe(0);
    await waitUntil(() => tail.stdout().includes(`webhook ${hook.webhook_id} disabled; its pending events are failed`), 20_000, () => tail.stdout());
    expect((await runCli(['webhooks', 'enable', hook.webhook_id], { env: s.env })).code).toBe(0);
    await waitUntil(() => tail.stdout().includes(`webhook ${hook.webhook_id} enabled`), 20_000, () => tail.stdout());
    expect(await tail.stop()).toBe(0);
    // The event in full, as a person reads it: URL, trigger time, attempts and (asked for) the payload.
    const id = /→ (msg_\S+) #1/.exec(tail.stdout())![1];
    const shown = await runCli(['webhooks', 'event', id, '--payload'], { env: s.env });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(`${hook.webhook_id} (${rx.url})`);
    expect(shown.stdout).toMatch(/triggered_at/);
    expect(shown.stdout).toContain('"hook_type": "saved_view"');
    // A custom event that converts the session sets off a view on that: `session event` says so.
    const site = (await admin(s, 'GET', '/sites/default')).site_id;
    await admin(s, 'POST', `/sites/${site}/views`, { name: 'Converted', filter: 'engagement_level = converted', trigger_webhooks: true });
    const sessionId = JSON.parse((await runCli(['sessions', 'list', '--limit', '1', '--json'], { env: s.env })).stdout)[0].session_id;
    const plain = await runCli(['session', 'event', sessionId, 'ping'], { env: s.env });
    expect(plain.stderr).not.toMatch(/matched view/);
    const converted = await runCli(['session', 'event', sessionId, 'conversion'], { env: s.env });
    expect(converted.code).toBe(0);
    expect(converted.stderr).toMatch(new RegExp(`→ matched view "Converted": webhook event msg_\\S+ for ${hook.webhook_id}`));
  });
});

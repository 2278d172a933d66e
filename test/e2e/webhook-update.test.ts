// vtr webhooks update with the built binary: a webhook pointed at another URL keeps its id, secret
// and history, and its retries go to the new URL.
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, startServer } from '../helpers/vtr-process.js';
import { freePort } from '../helpers/cli-process.js';
import { startReceiver } from '../helpers/receiver.js';
import { adminApi, wireWebhook } from '../helpers/admin.js';

const cleanup: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

describe('vtr webhooks update (built binary)', { timeout: 60_000 }, () => {
  it('update --url: same id, secret and events; the pending retry goes to the new URL', async () => {
    const s = await startServer(['--memory', '--clock', 'frozen']);
    cleanup.push(() => s.stop());
    const rx = await startReceiver({ answer: () => 200 });
    cleanup.push(() => rx.close());
    const hook = await wireWebhook(s.origin, `http://127.0.0.1:${await freePort()}/hook`, { view: false });
    const ev = await adminApi(s.origin, 'POST', `/webhooks/${hook.webhook_id}/trigger`, {});
    // The first attempt (made at once) is refused: the event waits for its retry.
    await expect.poll(async () => (await adminApi(s.origin, 'GET', `/webhook-events/${ev.webhook_event_id}`)).status).toBe('retrying');

    const r = await runCli(['webhooks', 'update', hook.webhook_id, '--url', rx.url, '--no-color'], { env: s.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`url:\\s+${rx.url.replace(/[.]/g, '\\.')}`));
    expect(r.stderr).toContain('pending retries included');
    const after = await adminApi(s.origin, 'GET', `/webhooks/${hook.webhook_id}`);
    expect(after).toMatchObject({ webhook_id: hook.webhook_id, secret: hook.secret, url: rx.url, status: 'enabled' });

    expect((await runCli(['clock', 'advance', '1m'], { env: s.env })).code).toBe(0);
    await rx.waitFor((ds) => ds.length === 1);
    expect(rx.deliveries[0].headers['webhook-id']).toBe(ev.webhook_event_id);
    await expect.poll(async () => (await adminApi(s.origin, 'GET', `/webhook-events/${ev.webhook_event_id}`)).status).toBe('delivered');

    // The URL it already has: nothing changed, said on stderr; --json prints the webhook.
    const same = await runCli(['webhooks', 'update', hook.webhook_id, '--url', rx.url, '--json'], { env: s.env });
    expect(same.code, same.stderr).toBe(0);
    expect(JSON.parse(same.stdout)).toMatchObject({ webhook_id: hook.webhook_id, url: rx.url });
    expect(same.stderr).toContain('nothing changed');
  });

  it('update: without --url, or with a URL missing its scheme, a usage error (exit 2); an unknown webhook exit 1', async () => {
    const s = await startServer(['--memory']);
    cleanup.push(() => s.stop());
    const hook = await wireWebhook(s.origin, 'http://127.0.0.1:9/', { view: false });
    const none = await runCli(['webhooks', 'update', hook.webhook_id], { env: s.env });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/nothing to change: give --url/);
    const bare = await runCli(['webhooks', 'update', hook.webhook_id, '--url', 'localhost:9000'], { env: s.env });
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('(did you mean http://localhost:9000?)');
    const unknown = await runCli(['webhooks', 'update', 'wh_nope', '--url', 'http://127.0.0.1:9000/'], { env: s.env });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('wh_nope');
    expect((await adminApi(s.origin, 'GET', `/webhooks/${hook.webhook_id}`)).url).toBe('http://127.0.0.1:9/');
  });
});

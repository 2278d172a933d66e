// vtr webhooks enable/disable with the built binary: what they say matches what they changed.
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, startServer } from '../helpers/vtr-process.js';
import { startReceiver } from '../helpers/receiver.js';
import { adminApi, wireWebhook } from '../helpers/admin.js';

const cleanup: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

describe('vtr webhooks enable (built binary)', () => {
  it('enable: a webhook that is already enabled is left as it was, its failure run included, and says so', async () => {
    const s = await startServer(['--memory', '--clock', 'frozen']);
    cleanup.push(() => s.stop());
    const rx = await startReceiver({ answer: () => 500 });
    cleanup.push(() => rx.close());
    const hook = await wireWebhook(s.origin, rx.url, { view: false });
    const trigger = await runCli(['webhooks', 'trigger', hook.webhook_id], { env: s.env });
    expect(trigger.code, trigger.stderr).toBe(0);
    expect((await runCli(['clock', 'advance', '2m'], { env: s.env })).code).toBe(0);
    expect((await adminApi(s.origin, 'GET', `/webhooks/${hook.webhook_id}`)).consecutive_failures).toBe(1);

    const again = await runCli(['webhooks', 'enable', hook.webhook_id], { env: s.env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('already enabled: nothing changed');
    expect(again.stderr).toContain('1 event failed in a row');
    expect(again.stderr).not.toContain('starts again from zero');
    expect((await adminApi(s.origin, 'GET', `/webhooks/${hook.webhook_id}`)).consecutive_failures).toBe(1);

    // Enabling a disabled one does start a new run.
    expect((await runCli(['webhooks', 'disable', hook.webhook_id], { env: s.env })).code).toBe(0);
    const enabled = await runCli(['webhooks', 'enable', hook.webhook_id], { env: s.env });
    expect(enabled.stderr).toContain('starts again from zero');
    expect((await adminApi(s.origin, 'GET', `/webhooks/${hook.webhook_id}`)).consecutive_failures).toBe(0);
  });
});

// A webhook deleted while `vtr webhooks tail --webhook <id>` follows it: said, and the tail ends.
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, startServer } from '../helpers/vtr-process.js';
import { spawnCli } from '../helpers/cli-process.js';
import { wireWebhook } from '../helpers/admin.js';

const cleanup: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

describe('webhooks tail, webhook deleted (built binary)', { timeout: 60_000 }, () => {
  it('tail --webhook: the webhook deleted while tailing is said and the tail ends, exit 0; --json stdout keeps attempts only', async () => {
    const s = await startServer(['--memory']);
    cleanup.push(() => s.stop('SIGKILL'));
    const hook = await wireWebhook(s.origin, 'http://127.0.0.1:9/', { view: false });
    const human = spawnCli(['webhooks', 'tail', '--no-color', '--webhook', hook.webhook_id], s.env, cleanup);
    const json = spawnCli(['webhooks', 'tail', '--json', '--webhook', hook.webhook_id], s.env, cleanup);
    await human.waitErr(/Tailing/);
    await json.waitErr(/Tailing/);
    expect((await runCli(['webhooks', 'delete', hook.webhook_id, '--yes'], { env: s.env })).code).toBe(0);
    expect(await human.exited()).toBe(0);
    expect(await json.exited()).toBe(0);
    expect(human.stdout()).toContain(`webhook ${hook.webhook_id} deleted`);
    expect(json.stdout()).toBe('');
    expect(json.stderr()).toContain(`webhook ${hook.webhook_id} was deleted; nothing left to tail`);
  });
});

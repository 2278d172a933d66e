// A webhook URL with credentials (basic auth) through the built binary: the human output masks its
// password (create, list, enable/disable, event, tail, clock advance); --json keeps the URL exactly
// as registered; deliveries still authenticate with it.
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, startServer } from '../helpers/vtr-process.js';
import { spawnCli } from '../helpers/cli-process.js';
import { startReceiver, waitUntil } from '../helpers/receiver.js';

const cleanup: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

describe('webhooks with credentials in the URL (built CLI)', () => {
  it('webhooks: human output masks the URL password, --json keeps the URL as registered', async () => {
    const s = await startServer(['--memory', '--clock', 'frozen']);
    cleanup.push(() => s.stop('SIGKILL'));
    const rx = await startReceiver({ answer: (d) => (d.n < 2 ? 500 : 200) });
    cleanup.push(() => rx.close());
    const url = rx.url.replace('http://', 'http://hooks:s3cret@');
    const shown = rx.url.replace('http://', 'http://hooks:***@');
    const cli = async (...args: string[]) => {
      const r = await runCli(args, { env: s.env });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout + r.stderr).not.toContain('s3cret');
      return r;
    };
    const raw = async (...args: string[]) => {
      const r = await runCli([...args, '--json'], { env: s.env });
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout);
    };

    const made = await runCli(['webhooks', 'create', '--url', url, '--json'], { env: s.env });
    expect(made.code, made.stderr).toBe(0);
    const hook = JSON.parse(made.stdout);
    expect(hook.url).toBe(url);
    expect((await raw('webhooks', 'list'))[0].url).toBe(url);
    expect((await cli('webhooks', 'list')).stdout).toContain(shown);

    const tail = spawnCli(['webhooks', 'tail'], s.env, cleanup);
    await tail.waitErr(/Tailing/);
    const trig = await cli('webhooks', 'trigger', hook.webhook_id);
    const eventId = trig.stdout.trim();
    await rx.waitFor((ds) => ds.length === 1);
    expect(rx.deliveries[0].headers.authorization).toBe(`Basic ${Buffer.from('hooks:s3cret').toString('base64')}`);
    expect((await cli('webhooks', 'event', eventId)).stdout).toContain(`${hook.webhook_id} (${shown})`);
    expect((await cli('clock', 'advance', '1h')).stderr).toContain(shown);
    expect((await cli('webhooks', 'disable', hook.webhook_id)).stdout).toContain(shown);
    expect((await raw('webhooks', 'enable', hook.webhook_id)).url).toBe(url);
    await waitUntil(() => /enabled/.test(tail.stdout()), 20_000, () => tail.stdout());
    expect(await tail.stop()).toBe(0);
    expect(tail.stdout()).toContain(`POST ${shown}`);
    expect(tail.stdout()).toContain(`${hook.webhook_id} ${shown}`);
    expect(tail.stdout()).not.toContain('s3cret');

    // A URL refused before it is sent: the usage error quotes it with the password masked.
    const refused = await runCli(['webhooks', 'create', '--url', 'ftp://hooks:s3cret@example.com/in'], { env: s.env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('"ftp://hooks:***@example.com/in" must use http or https');
    expect(refused.stderr).not.toContain('s3cret');
  });
});

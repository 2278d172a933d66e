// `vtr webhooks retry <event-id>` whose attempt fails, with the built binary: said once, and a
// refused connection says that nothing listens at the webhook's URL.
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, startServer, type ServerProcess } from '../helpers/vtr-process.js';
import { freePort } from '../helpers/cli-process.js';
import { startReceiver, waitUntil } from '../helpers/receiver.js';
import { adminApi, wireWebhook } from '../helpers/admin.js';

const cleanup: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

async function serve(): Promise<ServerProcess> {
  const s = await startServer(['--memory', '--retry-schedule', '10ms,10ms,10ms,10ms,10ms']);
  cleanup.push(() => s.stop('SIGKILL'));
  return s;
}

/** A webhook to `url` with one event whose automatic attempts have all failed. */
async function failedEvent(s: ServerProcess, url: string): Promise<{ webhook_id: string; webhook_event_id: string }> {
  const hook = await wireWebhook(s.origin, url, { view: false });
  const ev = await adminApi(s.origin, 'POST', `/webhooks/${hook.webhook_id}/trigger`, {});
  await waitUntil(async () => (await adminApi(s.origin, 'GET', `/webhook-events/${ev.webhook_event_id}`)).status === 'failed');
  return { webhook_id: hook.webhook_id, webhook_event_id: ev.webhook_event_id };
}

const errorLines = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('vtr: error:'));

describe('webhooks retry, attempt failed (built binary)', { timeout: 60_000 }, () => {
  it('retry: a refused connection is said once, on stderr, with the receiver to start; exit 1', async () => {
    const s = await serve();
    const port = await freePort();
    const e = await failedEvent(s, `http://127.0.0.1:${port}/hook`);
    const r = await runCli(['webhooks', 'retry', e.webhook_event_id], { env: s.env });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(errorLines(r.stderr)).toHaveLength(1);
    expect(r.stderr).toMatch(new RegExp(`${e.webhook_event_id} still failed: attempt 7 \\(connect ECONNREFUSED 127\\.0\\.0\\.1:${port}`));
    expect(r.stderr).toContain(`nothing listens at http://127.0.0.1:${port}/hook`);
    expect(r.stderr).toContain(`vtr webhooks receive --port ${port}`);
    expect(r.stderr).toContain(`vtr webhooks update ${e.webhook_id} --url <url>`);
    expect(r.stderr.match(new RegExp(e.webhook_event_id, 'g'))).toHaveLength(1);
  });

  it('retry --json: stdout is the event alone, stderr says the failure once with the hint; exit 1', async () => {
    const s = await serve();
    const port = await freePort();
    const e = await failedEvent(s, `http://127.0.0.1:${port}/hook`);
    const r = await runCli(['webhooks', 'retry', e.webhook_event_id, '--json'], { env: s.env });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ webhook_event_id: e.webhook_event_id, status: 'failed' });
    expect(errorLines(r.stderr)).toHaveLength(1);
    expect(r.stderr).toContain(`vtr webhooks receive --port ${port}`);
  });

  it('retry: an endpoint that answers 500 is said once, without the receiver hint; exit 1', async () => {
    const rx = await startReceiver({ answer: () => 500 });
    cleanup.push(() => rx.close());
    const s = await serve();
    const e = await failedEvent(s, rx.url);
    const r = await runCli(['webhooks', 'retry', e.webhook_event_id], { env: s.env });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(errorLines(r.stderr)).toEqual([expect.stringMatching(new RegExp(`^vtr: error: ${e.webhook_event_id} still failed: attempt 7 \\(HTTP 500, \\d+ms\\)$`))]);
  });
});

import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { jsonContext as context } from '../../helpers/cli-context.js';
import { run as retry } from '../../../src/cli/commands/webhooks/retry.js';
import { UsageError } from '../../../src/cli/errors.js';

const servers: Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

const event = (id: string) => ({
  webhook_event_id: id, webhook_id: 'wh_1', saved_view_id: 'view_1', saved_view_name: 'Bad', session_id: 'ses_1', site_id: 'site_1',
  status: 'delivered', auto_retries_remaining: 0, next_attempt_at: null, created_at: '2026-11-26T10:00:00.000000',
  triggered_at: '2026-11-26T10:00:00.000000',
  attempts: [{ attempt: 7, trigger: 'manual', at: '2026-11-26T10:05:00.000000', status_code: 200, error: null, duration_ms: 400 }],
});

/** An emulator whose manual retry answers only after `delayMs` (the receiver takes that long). */
async function slowRetry(delayMs: number): Promise<string> {
  const s = createServer((req, res) => {
    req.resume();
    const send = (body: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.url?.includes('/events')) return send([{ ...event('msg_a'), status: 'failed' }]);
    if (req.method === 'GET') {
      return send({ webhook_id: 'wh_1', site_id: 'site_1', url: 'http://127.0.0.1:9/', status: 'enabled', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', consecutive_failures: 0, created_at: '2026-11-26T10:00:00.000000' });
    }
    const id = /webhook-events\/([^/]+)\/retry/.exec(req.url ?? '')![1];
    setTimeout(() => send(event(id)), delayMs);
  });
  servers.push(s);
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(s.address() as { port: number }).port}/api/v1`;
}


describe('vtr webhooks retry', () => {
  it('retry: waits for the attempt however long the receiver takes to answer', async () => {
    const { ctx, out } = context(await slowRetry(400));
    await retry({ args: ['msg_a'] }, ctx);
    expect(JSON.parse(out())).toMatchObject({ webhook_event_id: 'msg_a', status: 'delivered' });
  });

  it('retry <event-id> --webhook: refused as a usage error naming --webhook (it only goes with --all-failed), nothing retried', async () => {
    const { ctx } = context(await slowRetry(0));
    const err = await retry({ args: ['msg_a'], webhook: 'wh_other' }, ctx).then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toMatch(/^--webhook .*--all-failed/);
  });

  it('retry --all-failed: waits for each attempt however long the receiver takes to answer', async () => {
    const { ctx, out } = context(await slowRetry(400));
    await retry({ args: [], allFailed: true, webhook: 'wh_1' }, ctx);
    expect(JSON.parse(out())).toMatchObject([{ webhook_event_id: 'msg_a', status: 'delivered' }]);
  });
});

/** An emulator with `total` failed events (newest first, paged by `before` up to 10,000 a page) whose retries deliver. */
async function manyFailed(total: number): Promise<{ baseUrl: string; retried: string[] }> {
  const ids = Array.from({ length: total }, (_, i) => `msg_${String(total - i).padStart(6, '0')}`);
  const retried: string[] = [];
  const s = createServer((req, res) => {
    req.resume();
    const send = (body: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname.endsWith('/events')) {
      const before = url.searchParams.get('before');
      const from = before ? ids.indexOf(before) + 1 : 0;
      return send(ids.slice(from, from + Number(url.searchParams.get('limit'))).map((id) => ({ ...event(id), status: 'failed' })));
    }
    if (req.method === 'GET') {
      return send({ webhook_id: 'wh_1', site_id: 'site_1', url: 'http://127.0.0.1:9/', status: 'enabled', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', consecutive_failures: 0, created_at: '2026-11-26T10:00:00.000000' });
    }
    const id = /webhook-events\/([^/]+)\/retry/.exec(url.pathname)![1];
    retried.push(id);
    send(event(id));
  });
  servers.push(s);
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return { baseUrl: `http://127.0.0.1:${(s.address() as { port: number }).port}/api/v1`, retried };
}

describe('vtr webhooks retry --all-failed past one listing', () => {
  it('retry --all-failed: retries every failed event, past the 10,000 one listing answers, oldest first', { timeout: 120_000 }, async () => {
    const { baseUrl, retried } = await manyFailed(10_002);
    const { ctx, out } = context(baseUrl, 5_000);
    await retry({ args: [], allFailed: true, webhook: 'wh_1' }, ctx);
    expect(retried).toHaveLength(10_002);
    expect(retried[0]).toBe('msg_000001');
    expect(retried[retried.length - 1]).toBe('msg_010002');
    expect(JSON.parse(out())).toHaveLength(10_002);
  });
});

import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { jsonContext as context } from '../../helpers/cli-context.js';
import { run as retry } from '../../../src/cli/commands/webhooks/retry.js';

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

  it('retry --all-failed: waits for each attempt however long the receiver takes to answer', async () => {
    const { ctx, out } = context(await slowRetry(400));
    await retry({ args: [], allFailed: true, webhook: 'wh_1' }, ctx);
    expect(JSON.parse(out())).toMatchObject([{ webhook_event_id: 'msg_a', status: 'delivered' }]);
  });
});

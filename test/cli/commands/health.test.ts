import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { jsonContext as context } from '../../helpers/cli-context.js';
import { run as health } from '../../../src/cli/commands/health/health.js';
import { ConnectionError } from '../../../src/client/api-client.js';

const servers: Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    s.close();
  }
});

/** A server that takes each request and then `does` something other than answer it. */
async function server(does: 'hang' | 'close'): Promise<string> {
  const s = createServer((req) => {
    req.resume();
    if (does === 'close') req.socket.destroy();
  });
  servers.push(s);
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(s.address() as { port: number }).port}/api/v1`;
}

describe('vtr health', () => {
  it('health: a server that takes the request and never answers is busy or stuck (a timeout), not unreachable', async () => {
    const { ctx } = context(await server('hang'));
    const err = await health({}, ctx).then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect((err as ConnectionError).timeoutMs).toBe(100);
  });

  it('health: a server that closes the connection without answering is said so, not unreachable', async () => {
    const { ctx } = context(await server('close'));
    const err = await health({}, ctx).then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect((err as ConnectionError).cutOff).toBe(true);
  });
});

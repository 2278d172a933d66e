// The webhook sender over real HTTP: the timeout bounds the whole exchange, the answer's body included.
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpSender } from '../../src/webhooks/sender.js';

let server: Server | null = null;
const sender = createHttpSender();
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r) ?? r(null));
  server = null;
});

async function receiver(handler: Parameters<typeof createServer>[1]): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`;
}

describe('webhook sender', () => {
  it('send: a 2xx answered in time is a success', async () => {
    const url = await receiver((_req, res) => res.writeHead(204).end());
    expect(await sender.send(url, {}, '{}', 1000)).toEqual({ ok: true, status_code: 204, error: null });
  });

  it('send: a 2xx whose body is still coming at the timeout is a timeout, not a success', async () => {
    const url = await receiver((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const t = setInterval(() => res.write('.'), 100);
      res.on('close', () => clearInterval(t));
    });
    const r = await sender.send(url, {}, '{}', 500);
    expect(r).toMatchObject({ ok: false, status_code: 200 });
    expect(r.error).toMatch(/^timed out after/);
  });

  it('send: an https URL whose endpoint speaks plain HTTP is a one-line TLS error, not an OpenSSL dump', async () => {
    const url = (await receiver((_req, res) => res.writeHead(200).end())).replace('http:', 'https:');
    const r = await sender.send(url, {}, '{}', 2000);
    expect(r).toMatchObject({ ok: false, status_code: null });
    expect(r.error).toBe('TLS error: wrong version number (ERR_SSL_WRONG_VERSION_NUMBER); is the endpoint plain http://?');
  });
  it('send: credentials in the URL go as HTTP Basic auth, not silently dropped', async () => {
    let seen: { auth?: string; url?: string; host?: string } = {};
    const url = await receiver((req, res) => {
      seen = { auth: req.headers.authorization, url: req.url, host: req.headers.host };
      res.writeHead(204).end();
    });
    const withCreds = url.replace('http://', 'http://hook%40user:p%3Ass%20w@');
    expect(await sender.send(withCreds, { 'webhook-id': 'msg_1' }, '{}', 2000)).toEqual({ ok: true, status_code: 204, error: null });
    expect(seen.auth).toBe(`Basic ${Buffer.from('hook@user:p:ss w').toString('base64')}`);
    expect(seen.url).toBe('/hook');
    expect(seen.host).not.toContain('@');
  });
});

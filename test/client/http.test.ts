// The client's HTTP (src/client/http.ts) and the API client's error mapping, against real local servers.
import { describe, expect, it } from 'vitest';
import { readText, send } from '../../src/client/http.js';
import { ApiError, ConnectionError, createApiClient } from '../../src/client/api-client.js';
import { closeServer, listen } from '../helpers/local-server.js';


describe('client http', () => {
  it('send: method, headers and body arrive; status and text come back', async () => {
    const origin = await listen((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c)).on('end', () => {
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ method: req.method, length: req.headers['content-length'], auth: req.headers.authorization, body }));
      });
    });
    const res = await send(new URL(`${origin}/x`), { method: 'POST', headers: { authorization: 'Bearer t' }, body: '{"é":1}', timeoutMs: 5000 });
    expect(res.statusCode).toBe(201);
    expect(JSON.parse(await readText(res))).toEqual({ method: 'POST', length: '8', auth: 'Bearer t', body: '{"é":1}' });
  });

  it('send: a server that never answers fails after the timeout', async () => {
    const origin = await listen(() => {});
    await expect(send(new URL(origin), { method: 'GET', headers: {}, timeoutMs: 200 })).rejects.toThrow(/no answer within 200 ms/);
  });

  it('api client: a server that takes the request but never answers is a timeout, not an unreachable server', async () => {
    const origin = await listen(() => {});
    const client = createApiClient({ baseUrl: `${origin}/api/v1`, accessToken: 'at', timeoutMs: 200 });
    const err = await client.api('GET', '/session/x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err).toMatchObject({ timeoutMs: 200, message: `the emulator at ${origin} did not answer within 0.2 s` });
  });

  it('send: https goes through TLS (a plain HTTP port refuses the handshake)', async () => {
    const origin = await listen((_req, res) => res.end('plain'));
    await expect(send(new URL(origin.replace('http:', 'https:')), { method: 'GET', headers: {}, timeoutMs: 2000 })).rejects.toThrow();
  });

  it('api client: an error answer is an ApiError with its code; no server is a ConnectionError', async () => {
    const origin = await listen((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 'not_found', message: 'session not found' }));
    });
    const client = createApiClient({ baseUrl: `${origin}/api/v1`, accessToken: 'at' });
    const err = await client.api('GET', '/session/x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 404, code: 'not_found', message: 'session not found' });
    await closeServer();
    await expect(client.api('GET', '/session/x')).rejects.toBeInstanceOf(ConnectionError);
  });
});

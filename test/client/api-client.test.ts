// The API client's requests, over HTTP and through an injected fetch (the library's in-process
// emulator): credentials, the clock mode an answer names, a closed emulator, a failed or cut
// connection. `download` (a state export) and `send` (every other call) go the same way.
import { describe, expect, it } from 'vitest';
import { ApiError, ConnectionError, createApiClient } from '../../src/client/api-client.js';
import { closeServer, listen } from '../helpers/local-server.js';


const ORIGIN = 'http://127.0.0.1:42199';

async function text(body: AsyncIterable<Uint8Array>): Promise<string> {
  let s = '';
  for await (const chunk of body) s += Buffer.from(chunk).toString('utf8');
  return s;
}

/** A stand-in emulator answering with what it was asked: method, path, authorization, body. */
function echo(seen: Request[]) {
  return async (request: Request): Promise<Response> => {
    seen.push(request);
    const body = { method: request.method, path: new URL(request.url).pathname, auth: request.headers.get('authorization'), accept: request.headers.get('accept'), body: await request.text() };
    return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json', 'vtr-clock': 'manual' } });
  };
}

describe('api client download', () => {
  it('download: over HTTP, the admin token goes, the clock mode is told, the headers and body come back', async () => {
    const origin = await listen((req, res) => {
      const doc = JSON.stringify({ auth: req.headers.authorization, accept: req.headers.accept, method: req.method, url: req.url });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(doc)), 'vtr-clock': 'frozen', 'vtr-state-tables': '{"sites":1}' });
      res.end(doc);
    });
    const modes: string[] = [];
    const client = createApiClient({ baseUrl: `${origin}/api/v1`, adminToken: 'adm', accessToken: 'at', onClockMode: (m) => modes.push(m) });
    const answer = await client.download('/state');
    expect(modes).toEqual(['frozen']);
    expect(answer.header('vtr-state-tables')).toBe('{"sites":1}');
    expect(JSON.parse(await text(answer.body))).toEqual({ auth: 'Bearer adm', accept: 'application/json', method: 'GET', url: '/_vtr/api/state' });
  });

  it('download: through an injected fetch, the admin token goes, the clock mode is told, the body comes back', async () => {
    const seen: Request[] = [];
    const modes: string[] = [];
    const client = createApiClient({ baseUrl: `${ORIGIN}/api/v1`, adminToken: 'adm', fetch: echo(seen), onClockMode: (m) => modes.push(m) });
    const answer = await client.download('/state');
    expect(modes).toEqual(['manual']);
    expect(JSON.parse(await text(answer.body))).toEqual({ method: 'GET', path: '/_vtr/api/state', auth: 'Bearer adm', accept: 'application/json', body: '' });
  });

  it('download: without an admin token no authorization header goes', async () => {
    const client = createApiClient({ baseUrl: `${ORIGIN}/api/v1`, accessToken: 'at', fetch: echo([]) });
    expect(JSON.parse(await text((await client.download('/state')).body))).toMatchObject({ auth: null });
  });

  it('download: when the emulator is unavailable it refuses saying why, and nothing is sent', async () => {
    const seen: Request[] = [];
    const client = createApiClient({ baseUrl: `${ORIGIN}/api/v1`, fetch: echo(seen), unavailable: () => 'this emulator is closed' });
    const err = await client.download('/state').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err).toMatchObject({ message: 'this emulator is closed', write: false, cutOff: false, url: ORIGIN });
    expect(seen).toEqual([]);
  });

  it('download: an injected fetch that fails gives its own words; no server over HTTP cannot be reached', async () => {
    const injected = createApiClient({ baseUrl: `${ORIGIN}/api/v1`, fetch: async () => { throw new Error('emulator gone'); } });
    await expect(injected.download('/state')).rejects.toMatchObject({ name: 'ConnectionError', message: 'emulator gone', write: false });
    const origin = await listen(() => {});
    await closeServer();
    const http = createApiClient({ baseUrl: `${origin}/api/v1` });
    await expect(http.download('/state')).rejects.toMatchObject({ name: 'ConnectionError', message: `cannot reach the emulator at ${origin}` });
  });

  it('download: a server that never answers is a timeout of the client\'s limit', async () => {
    const origin = await listen(() => {});
    const client = createApiClient({ baseUrl: `${origin}/api/v1`, timeoutMs: 200 });
    await expect(client.download('/state')).rejects.toMatchObject({ name: 'ConnectionError', timeoutMs: 200 });
  });

  it('download: a body shorter than its length, or one that fails part way, is a cut connection', async () => {
    const short = createApiClient({
      baseUrl: `${ORIGIN}/api/v1`,
      fetch: async () => new Response('{"a":', { headers: { 'content-type': 'application/json', 'content-length': '100' } }),
    });
    const err = await text((await short.download('/state')).body).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err).toMatchObject({ cutOff: true, message: `the emulator at ${ORIGIN} closed the connection without answering` });
    const failing = createApiClient({
      baseUrl: `${ORIGIN}/api/v1`,
      fetch: async () => new Response(new ReadableStream({ start: (c) => { c.enqueue(new TextEncoder().encode('{"a":')); c.error(new Error('boom')); } }), { headers: { 'content-type': 'application/json' } }),
    });
    await expect(text((await failing.download('/state')).body)).rejects.toMatchObject({ name: 'ConnectionError', cutOff: true });
  });

  it('download: an error answer is an ApiError, the clock mode told all the same', async () => {
    const modes: string[] = [];
    const client = createApiClient({
      baseUrl: `${ORIGIN}/api/v1`,
      onClockMode: (m) => modes.push(m),
      fetch: async () => new Response(JSON.stringify({ code: 'unauthorized', message: 'admin token required' }), { status: 401, headers: { 'content-type': 'application/json', 'vtr-clock': 'system' } }),
    });
    await expect(client.download('/state')).rejects.toMatchObject({ name: 'ApiError', status: 401, code: 'unauthorized', message: 'admin token required' });
    expect(modes).toEqual(['system']);
  });

  it('download: an error answer whose character is split between two chunks reads as sent; one cut part way is a cut connection', async () => {
    const bytes = new TextEncoder().encode(JSON.stringify({ code: 'not_found', message: 'no site “café”' }));
    const at = bytes.indexOf(0xc3) + 1; // inside é's two bytes
    const split = createApiClient({
      baseUrl: `${ORIGIN}/api/v1`,
      fetch: async () => new Response(new ReadableStream({ start: (c) => { c.enqueue(bytes.slice(0, at)); c.enqueue(bytes.slice(at)); c.close(); } }), { status: 404, headers: { 'content-type': 'application/json' } }),
    });
    await expect(split.download('/state')).rejects.toMatchObject({ name: 'ApiError', status: 404, message: 'no site “café”' });
    const cut = createApiClient({
      baseUrl: `${ORIGIN}/api/v1`,
      fetch: async () => new Response(new ReadableStream({ start: (c) => { c.enqueue(bytes.slice(0, at)); c.error(new Error('boom')); } }), { status: 404, headers: { 'content-type': 'application/json' } }),
    });
    await expect(cut.download('/state')).rejects.toBeInstanceOf(ConnectionError);
  });
});

describe('api client send', () => {
  it('admin: through an injected fetch, the admin token goes and the clock mode is told', async () => {
    const seen: Request[] = [];
    const modes: string[] = [];
    const client = createApiClient({ baseUrl: `${ORIGIN}/api/v1`, adminToken: 'adm', accessToken: 'at', fetch: echo(seen), onClockMode: (m) => modes.push(m) });
    await expect(client.raw('GET', `${ORIGIN}/_vtr/api/x`, { auth: 'admin', query: { a: 1, b: '' } })).resolves.toMatchObject({ method: 'GET', auth: 'Bearer adm', accept: 'application/json' });
    expect(new URL(seen[0].url).search).toBe('?a=1');
    expect(modes).toEqual(['manual']);
  });

  it('admin: over HTTP, the admin token goes and the clock mode is told', async () => {
    const origin = await listen((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'vtr-clock': 'frozen' });
      res.end(JSON.stringify({ auth: req.headers.authorization }));
    });
    const modes: string[] = [];
    const client = createApiClient({ baseUrl: `${origin}/api/v1`, adminToken: 'adm', onClockMode: (m) => modes.push(m) });
    await expect(client.raw('GET', `${origin}/_vtr/api/x`, { auth: 'admin' })).resolves.toEqual({ auth: 'Bearer adm' });
    expect(modes).toEqual(['frozen']);
  });

  it('send: a streamed body through an injected fetch arrives whole', async () => {
    const client = createApiClient({ baseUrl: `${ORIGIN}/api/v1`, adminToken: 'adm', fetch: echo([]) });
    const chunks = (async function* () { yield Buffer.from('{"a":'); yield Buffer.from('1}'); })();
    await expect(client.raw('PUT', `${ORIGIN}/_vtr/api/state`, { auth: 'admin', json: chunks })).resolves.toMatchObject({ method: 'PUT', body: '{"a":1}' });
  });

  it('send: when the emulator is unavailable it refuses saying why, a write marked as one, and nothing is sent', async () => {
    const seen: Request[] = [];
    const client = createApiClient({ baseUrl: `${ORIGIN}/api/v1`, fetch: echo(seen), unavailable: () => 'closed' });
    await expect(client.raw('GET', `${ORIGIN}/x`)).rejects.toMatchObject({ name: 'ConnectionError', message: 'closed', write: false });
    await expect(client.raw('POST', `${ORIGIN}/x`)).rejects.toMatchObject({ name: 'ConnectionError', message: 'closed', write: true });
    expect(seen).toEqual([]);
  });

  it('send: an injected fetch that fails gives its own words, a write marked as one', async () => {
    const client = createApiClient({ baseUrl: `${ORIGIN}/api/v1`, fetch: async () => { throw new Error('emulator gone'); } });
    await expect(client.raw('DELETE', `${ORIGIN}/x`)).rejects.toMatchObject({ name: 'ConnectionError', message: 'emulator gone', write: true });
    await expect(client.raw('GET', `${ORIGIN}/x`)).rejects.toMatchObject({ name: 'ConnectionError', message: 'emulator gone', write: false });
  });

  it('send: an error answer is an ApiError', async () => {
    const client = createApiClient({ baseUrl: `${ORIGIN}/api/v1`, fetch: async () => new Response(JSON.stringify({ code: 'not_found', message: 'no' }), { status: 404, headers: { 'content-type': 'application/json' } }) });
    const err = await client.raw('GET', `${ORIGIN}/x`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 404, code: 'not_found' });
  });
});

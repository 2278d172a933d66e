// The error model over a real socket (the Node request path of @hono/node-server, not app.request).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { harness, type Harness } from '../helpers/emulator.js';

let h: Harness;
let port: number;
let sessionId: string;
beforeAll(async () => {
  h = harness();
  port = (await h.emulator.listen(0, '127.0.0.1')).port;
  sessionId = (await h.createSession()).session_id;
});
afterAll(async () => {
  await h.close();
});

interface Sent {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/** One request; `chunks` are written one by one (chunked encoding unless content-length is given). */
function send(method: string, path: string, chunks: Array<string | Buffer>, headers: Record<string, string> = {}): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers: { authorization: `Bearer ${h.token}`, ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : undefined }));
    });
    // The server may answer (413) and close before the whole body is written.
    req.on('error', (err) => ((err as NodeJS.ErrnoException).code === 'EPIPE' || (err as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(err)));
    const write = (i: number) => {
      if (i >= chunks.length) return req.end();
      if (req.destroyed) return;
      req.write(chunks[i], () => write(i + 1));
    };
    write(0);
  });
}

const eventPath = () => `/api/v1/session/${sessionId}/event`;
const mib = (n: number) => Buffer.alloc(Math.round(n * 1024 * 1024), 0x20);

describe('error model over HTTP', () => {
  it('socket: a valid event is accepted', async () => {
    const r = await send('POST', eventPath(), ['{"name":', '"socket"}'], { 'content-type': 'application/json' });
    expect(r).toMatchObject({ status: 200, body: { success: true } });
  });

  it('socket: truncated JSON and non-UTF-8 bytes are 400 invalid_json', async () => {
    const truncated = await send('POST', eventPath(), ['{"name": "abc'], { 'content-type': 'application/json' });
    expect(truncated.status).toBe(400);
    expect(truncated.body.code).toBe('invalid_json');
    const latin1 = await send('POST', eventPath(), [Buffer.from([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xe9, 0x22, 0x7d])], { 'content-type': 'application/json' });
    expect(latin1.status).toBe(400);
    expect(latin1.body.code).toBe('invalid_json');
  });

  it('socket: a non-JSON content type is a 415', async () => {
    const r = await send('POST', eventPath(), ['name=x'], { 'content-type': 'application/x-www-form-urlencoded' });
    expect(r.status).toBe(415);
    expect(r.body.code).toBe('unsupported_media_type');
  });

  it('socket: over 1 MiB with a content-length is a 413', async () => {
    const body = mib(1.5);
    const r = await send('POST', eventPath(), [body], { 'content-type': 'application/json', 'content-length': String(body.length) });
    expect(r.status).toBe(413);
    expect(r.body.code).toBe('payload_too_large');
  });

  it('socket: over 1 MiB chunked, without a content-length, is a 413', async () => {
    const chunks = Array.from({ length: 40 }, () => mib(0.0625)); // 2.5 MiB in 64 KiB chunks
    const r = await send('POST', eventPath(), chunks, { 'content-type': 'application/json' });
    expect(r.status).toBe(413);
    expect(r.body.code).toBe('payload_too_large');
  });

  it('socket: a 405 carries an Allow header', async () => {
    const r = await send('PUT', eventPath(), ['{}'], { 'content-type': 'application/json' });
    expect(r.status).toBe(405);
    expect(String(r.headers.allow)).toMatch(/POST/);
  });

  it('socket: a client that hangs up mid-body does not hurt the server', async () => {
    const before = await send('GET', `/api/v1/session/${sessionId}`, []);
    await new Promise<void>((resolve) => {
      const sock = connect(port, '127.0.0.1', () => {
        sock.write(`POST ${eventPath()} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${h.token}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":`);
        setTimeout(() => {
          sock.destroy();
          resolve();
        }, 50);
      });
      sock.on('error', () => resolve());
    });
    await new Promise<void>((resolve) => {
      const sock = connect(port, '127.0.0.1', () => sock.end('GARBAGE / HTTP/9.9\r\n\r\n'));
      sock.on('data', () => {});
      sock.on('close', () => resolve());
      sock.on('error', () => resolve());
    });
    const health = await send('GET', '/_vtr/health', []);
    expect(health).toMatchObject({ status: 200, body: { status: 'ok' } });
    const s = await send('GET', `/api/v1/session/${sessionId}`, []);
    expect(s.status).toBe(200);
    // The cut-off request wrote nothing: the session is as it was.
    expect(s.body.custom_events).toEqual(before.body.custom_events);
  });

  it('socket: a malformed chunk in a body is a 400 in the contract\'s shape, on the direct and the app routes', async () => {
    const raw = (path: string) =>
      new Promise<string>((resolve) => {
        const sock = connect(port, '127.0.0.1', () =>
          sock.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${h.token}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"a":\r\nZZZ\r\n\r\n`),
        );
        let text = '';
        sock.on('data', (d) => (text += d));
        sock.on('close', () => resolve(text));
        sock.on('error', () => resolve(text));
      });
    for (const path of ['/api/v1/event', eventPath(), `/_vtr/api/sites/${h.site.site_id}/sessions`]) {
      const answer = await raw(path);
      expect(answer, path).toMatch(/^HTTP\/1\.1 400 /);
      expect(answer.toLowerCase(), path).toContain('connection: close');
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)), path).toEqual({
        code: 'invalid_request', message: expect.stringContaining('chunked encoding'),
      });
    }
    expect(await send('GET', '/_vtr/health', [])).toMatchObject({ status: 200 });
  });

  it('socket: CONNECT gets a 400 in the contract\'s shape, and an unknown Expect is ignored, not a bare 417', async () => {
    const raw = (bytes: string) =>
      new Promise<string>((resolve) => {
        const sock = connect(port, '127.0.0.1', () => sock.write(bytes));
        let text = '';
        sock.on('data', (d) => {
          text += d;
          if (/\}$/.test(text)) sock.end();
        });
        sock.on('close', () => resolve(text));
        sock.on('error', () => resolve(text));
      });
    const body = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
    const tunnel = await raw(`CONNECT 127.0.0.1:${port} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    expect(tunnel).toMatch(/^HTTP\/1\.1 400 /);
    expect(body(tunnel)).toEqual({ code: 'invalid_request', message: expect.stringContaining('CONNECT') });
    const expecting = await raw(
      `POST ${eventPath()} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${h.token}\r\nExpect: 200-ok\r\nContent-Type: application/json\r\nContent-Length: 13\r\nConnection: close\r\n\r\n{"name":"ex"}`,
    );
    expect(expecting).toMatch(/^HTTP\/1\.1 200 /);
    expect(body(expecting)).toEqual({ success: true });
    expect(await send('GET', '/_vtr/health', [])).toMatchObject({ status: 200 });
  });

  it('socket: an HTTP/1.0 request without a Host header is answered (HTTP/1.0 does not require one); HTTP/1.1 without one is a 400', async () => {
    const raw = (bytes: string) =>
      new Promise<string>((resolve) => {
        const sock = connect(port, '127.0.0.1', () => sock.write(bytes));
        let text = '';
        sock.on('data', (d) => (text += d));
        sock.on('close', () => resolve(text));
        sock.on('error', () => resolve(text));
      });
    const body = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
    const read = await raw(`GET /api/v1/session/${sessionId} HTTP/1.0\r\nAuthorization: Bearer ${h.token}\r\n\r\n`);
    expect(read).toMatch(/^HTTP\/1\.1 200 /);
    expect(body(read)).toMatchObject({ session_id: sessionId });
    const event = '{"name":"http10"}';
    const added = await raw(`POST ${eventPath()} HTTP/1.0\r\nAuthorization: Bearer ${h.token}\r\nContent-Type: application/json\r\nContent-Length: ${event.length}\r\n\r\n${event}`);
    expect(added).toMatch(/^HTTP\/1\.1 200 /);
    expect(body(added)).toEqual({ success: true });
    expect(await raw('GET /_vtr/health HTTP/1.0\r\n\r\n')).toMatch(/^HTTP\/1\.1 200 /);
    const noHost = await raw('GET /_vtr/health HTTP/1.1\r\nConnection: close\r\n\r\n');
    expect(noHost).toMatch(/^HTTP\/1\.1 400 /);
    expect(body(noHost)).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('Host') });
  });

  it('socket: a body declared over the limit gets its 413 while the client still writes, then the connection serves the next request', async () => {
    // 1.5 MiB declared and sent whole, then a health check on the same connection.
    const big = JSON.stringify({ name: 'y'.repeat(1.5 * 1024 * 1024) });
    const answers = await new Promise<string>((resolve) => {
      const sock = connect(port, '127.0.0.1');
      let text = '';
      let failed = '';
      sock.on('data', (d) => {
        text += d;
        if ((text.match(/HTTP\/1\.1 /g) ?? []).length === 2 && text.endsWith('}')) sock.end();
      });
      sock.on('error', (err) => (failed = (err as NodeJS.ErrnoException).code ?? 'error'));
      sock.on('close', () => resolve(failed ? `${failed}: ${text}` : text));
      sock.write(`POST /api/v1/event HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(big)}\r\n\r\n`);
      sock.write(big);
      sock.write('GET /_vtr/health HTTP/1.1\r\nHost: x\r\n\r\n');
    });
    expect(answers).toMatch(/^HTTP\/1\.1 413 /);
    expect(answers).toContain('"code":"payload_too_large"');
    expect(answers).toMatch(/\r\n\r\n\{[^]*HTTP\/1\.1 200 [^]*"status":"ok"/);
  });
});

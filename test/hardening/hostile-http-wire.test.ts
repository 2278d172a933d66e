// Hostile input against the built server (a real `vtr serve` process): thousands of generated bad
// requests. Whatever arrives, the server answers below 500, every JSON error is the contract's
// {code, message}, it keeps running and answering, and it logs no "unexpected error".
// The HTTP layer over raw sockets: body limits and framing, methods and request lines, header sizes.
import { describe, expect, it } from 'vitest';
import { CLOSED, type HostileTarget, json, runAll, useHostileTarget } from '../helpers/hostile-http.js';

let vtr: HostileTarget;
useHostileTarget((target) => (vtr = target));

describe('hostile HTTP input', () => {
  it('body limit: over 1 MiB with and without Content-Length, chunked, and lying lengths', async () => {
    const path = `/api/v1/session/${vtr.sessionId}/event`;
    const big = Buffer.alloc(3 * 1024 * 1024, 0x20);
    // Declared too large: refused before reading.
    const declared = await vtr.sendRaw(`POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${vtr.token}\r\nContent-Type: application/json\r\nContent-Length: ${50 * 1024 * 1024}\r\n\r\n{"name":`);
    vtr.check('declared 50 MiB', declared);
    expect(declared.status).toBe(413);
    // Chunked, no length: refused once past the limit.
    const chunked = await vtr.send('POST', path, { body: big, headers: { ...json, ...vtr.bearer() }, chunked: true });
    vtr.check('chunked 3 MiB', chunked, { allowTransportError: true });
    expect([413, ...CLOSED]).toContain(chunked.status || chunked.error);
    const rawChunked = await vtr.sendRaw(
      Buffer.concat([
        Buffer.from(`POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${vtr.token}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`),
        ...Array.from({ length: 24 }, () => Buffer.concat([Buffer.from('10000\r\n'), Buffer.alloc(0x10000, 0x20), Buffer.from('\r\n')])),
      ]),
    );
    vtr.check('raw chunked 1.5 MiB', rawChunked);
    expect(rawChunked.status).toBe(413);
    // Content-Length larger than what is sent, then the client goes away: no answer is possible, but no crash or log either.
    await vtr.sendRaw(`POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${vtr.token}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":"trunc`, 300);
    await vtr.sendRaw(`POST /api/v1/event HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n100\r\n{"secret_key":`, 300);
    // Bad chunk framing, conflicting lengths, bad lengths: Node's parser answers 400.
    for (const raw of [
      `POST ${path} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n`,
      `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`,
      `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n{}`,
      `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n{}`,
      `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
      `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999\r\n\r\n{}`,
    ]) {
      vtr.check(`raw ${raw.split('\r\n')[2]}`, await vtr.sendRaw(raw, 1500), { allowTransportError: true });
    }
    await vtr.expectHealthy();
  });

  it('methods: unknown and unusual methods over raw sockets', async () => {
    const methods = ['PATCH', 'PUT', 'DELETE', 'TRACE', 'OPTIONS', 'HEAD', 'CONNECT', 'PROPFIND', 'MKCOL', 'PURGE', 'QUERY', 'FOO', 'get', 'Get', 'G E T', 'GET\u0000', 'X'.repeat(1000), '', '💥'];
    const paths = ['/api/v1/session/x', `/api/v1/session/${vtr.sessionId}`, `/api/v1/session/${vtr.sessionId}/event`, '/api/v1/event', '/_vtr/api/sites', '/_vtr/health', '/', '/agent.js', '/nope', '*'];
    const cases: string[] = [];
    for (const m of methods) for (const p of paths) {
      cases.push(`${m} ${p} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${vtr.token}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`);
    }
    await runAll(cases, 8, async (raw) => vtr.check(`raw ${raw.split('\r\n')[0].slice(0, 60)}`, await vtr.sendRaw(raw), { allowTransportError: true }));
    // Known path, wrong method: 405 with an Allow header.
    for (const m of ['PUT', 'DELETE', 'PATCH', 'TRACE']) {
      const a = await vtr.sendRaw(`${m} /api/v1/session/${vtr.sessionId} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${vtr.token}\r\nConnection: close\r\n\r\n`);
      vtr.check(`${m} session`, a);
      expect(a.status, m).toBe(405);
      expect(a.headers.allow).toMatch(/GET/);
    }
    // Garbage request lines and protocol versions.
    for (const raw of ['OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n', 'GET /_vtr/health HTTP/1.1\r\nHost: [::bad\r\n\r\n', 'GET /_vtr/health HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n', '\r\n\r\n', 'GET\r\n\r\n', 'GET / HTTP/9.9\r\n\r\n', 'GET / HTTP/1.1\r\n\r\n', 'GET /_vtr/health HTTP/1.0\r\n\r\n', '\u0000\u0001\u0002\u0003', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'GET /' + 'a'.repeat(100_000) + ' HTTP/1.1\r\nHost: x\r\n\r\n', 'GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n', 'GET / HTTP/1.1\r\nHost: x\r\n: empty-name\r\n\r\n', 'GET / HTTP/1.1\nHost: x\n\n']) {
      // Blank lines before a request line are skipped (RFC 9112 §2.2): "\r\n\r\n" is not a request yet.
      vtr.check(`raw ${JSON.stringify(raw.slice(0, 30))}`, await vtr.sendRaw(raw, 1500), { allowTransportError: true, jsonError: true, incomplete: raw === '\r\n\r\n' });
    }
    await vtr.expectHealthy();
  });

  it('headers: extreme sizes get a 431 or 400, never a 5xx', async () => {
    const path = `/api/v1/session/${vtr.sessionId}`;
    const big = 'a'.repeat(64 * 1024);
    const raws = [
      `GET ${path} HTTP/1.1\r\nHost: x\r\nX-Big: ${big}\r\n\r\n`,
      `GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${big}\r\n\r\n`,
      `GET ${path} HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 3000 }, (_, i) => `X-H${i}: v`).join('\r\n')}\r\n\r\n`,
      `GET ${path} HTTP/1.1\r\nHost: x\r\nCookie: ${'c=1; '.repeat(5000)}\r\n\r\n`,
      `GET ${path} HTTP/1.1\r\nHost: ${big}\r\n\r\n`,
    ];
    for (const raw of raws) {
      const a = await vtr.sendRaw(raw);
      vtr.check(`header ${raw.length}`, a, { allowTransportError: true, jsonError: true });
      expect([400, 431, ...CLOSED], `header ${raw.length}`).toContain(a.status || a.error);
      if (a.status === 431) expect(JSON.parse(a.body).code).toBe('headers_too_large');
    }
    // Just under Node's limit: handled normally (401 for a bogus token, not a crash).
    const under = await vtr.send('GET', path, { headers: { authorization: `Bearer ${'t'.repeat(12 * 1024)}` } });
    vtr.check('12 KiB token', under);
    expect(under.status).toBe(401);
    // Odd but legal header values.
    for (const v of ['Bearer', 'Bearer ', 'Bearer  x  y', 'bearer ' + vtr.token, 'Basic dXNlcjpwYXNz', 'Bearer ' + vtr.token + ' extra', `Bearer ${vtr.token}\t`, 'Bearer \u00ff']) {
      const a = await vtr.sendRaw(`GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: ${v}\r\nConnection: close\r\n\r\n`);
      vtr.check(`authorization ${v.slice(0, 20)}`, a, { allowTransportError: true });
    }
    // Cookie with bad percent-encoding on the console and management API.
    for (const p of ['/_vtr/api/sites', '/_vtr/console/sessions', '/']) {
      vtr.check(`cookie ${p}`, await vtr.sendRaw(`GET ${p} HTTP/1.1\r\nHost: x\r\nCookie: vtr_admin=%E0%A4%A; other=%\r\nConnection: close\r\n\r\n`));
    }
    await vtr.expectHealthy();
  });
});

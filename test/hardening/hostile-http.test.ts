// Hostile input against the built server (a real `vtr serve` process): thousands of generated bad
// requests. Whatever arrives, the server answers below 500, every JSON error is the contract's
// {code, message}, it keeps running and answering, and it logs no "unexpected error".
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import http from 'node:http';
import net from 'node:net';
import { join } from 'node:path';
import { startServer, tempDir, type ServerProcess } from '../helpers/vtr-process.js';
import { mulberry32 } from '../../src/sessions/simulate-plan.js';
import { httpRequest } from '../helpers/raw-http.js';

let server: ServerProcess;
let port: number;
let siteId: string;
let token: string;
let secretKey: string;
let siteKey: string;
let sessionId: string;

const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** A transport error instead of an answer (e.g. the server closed a connection it refused). */
  error?: string;
}

/** The server closed or reset the connection (as it may on a request it refuses): not a hang. */
const CLOSED = ['ECONNRESET', 'EPIPE', 'aborted', 'closed'];

/** One request through the shared node:http client (keep-alive pool). Never throws. */
function send(method: string, path: string, opts: { body?: string | Buffer; headers?: Record<string, string | number>; chunked?: boolean } = {}): Promise<Answer> {
  let answer: Promise<Answer>;
  try {
    answer = httpRequest(agent, `http://127.0.0.1:${port}`, method, path, { ...opts, timeoutMs: 20_000 });
  } catch (e) {
    // The client library refused to build the request (e.g. an invalid header): nothing was sent.
    return Promise.resolve({ status: -1, headers: {}, body: '', error: `client: ${(e as Error).message}` });
  }
  return answer.catch((e: NodeJS.ErrnoException) => ({ status: 0, headers: {}, body: '', error: e.code ?? e.message }));
}

/** Raw bytes over a fresh socket; resolves with what came back when the server closes (or after waitMs). */
function sendRaw(bytes: string | Buffer, waitMs = 3000): Promise<Answer> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      s.destroy();
      const text = Buffer.concat(chunks).toString('latin1');
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(text);
      const sep = text.indexOf('\r\n\r\n');
      const head = sep === -1 ? text : text.slice(0, sep);
      const headers: http.IncomingHttpHeaders = {};
      for (const line of head.split('\r\n').slice(1)) {
        const i = line.indexOf(':');
        if (i > 0) headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
      }
      let body = sep === -1 ? '' : Buffer.concat(chunks).subarray(Buffer.byteLength(text.slice(0, sep + 4), 'latin1')).toString('utf8');
      const len = Number(headers['content-length']);
      if (Number.isFinite(len)) body = Buffer.from(body).subarray(0, len).toString('utf8');
      resolve({ status: m ? Number(m[1]) : 0, headers, body, ...(m ? {} : { error: timedOut ? 'timeout' : 'closed' }) });
    };
    let timedOut = false;
    const timer = setTimeout(() => ((timedOut = true), finish()), waitMs);
    s.on('data', (d) => {
      chunks.push(d);
      // One full answer with a known length is enough.
      const text = Buffer.concat(chunks).toString('latin1');
      const sep = text.indexOf('\r\n\r\n');
      const m = /\r\ncontent-length:\s*(\d+)/i.exec(text.slice(0, sep === -1 ? text.length : sep));
      if (sep !== -1 && m && chunks.reduce((n, c) => n + c.length, 0) >= sep + 4 + Number(m[1])) finish();
    });
    s.on('end', finish);
    s.on('close', finish);
    s.on('error', finish);
    s.write(bytes);
  });
}

// Per test (reset before each): a test reports its own failures and counts, in any order.
const failures: string[] = [];
let checked = 0;

/** The invariants every answer must keep. */
function check(label: string, a: Answer, opts: { allowTransportError?: boolean; jsonError?: boolean; incomplete?: boolean } = {}): void {
  checked++;
  const where = `${label} → ${a.status}${a.error ? ` (${a.error})` : ''} ${a.body.slice(0, 160)}`;
  if (a.status === -1) return; // never sent
  if (a.status === 0) {
    // Allowed: the server closing a connection it refused. Never: a hang, or a server not there.
    // incomplete: the bytes are not a whole request yet, so the server still waiting is right.
    const waiting = opts.incomplete && a.error === 'timeout';
    if (!waiting && (!opts.allowTransportError || !CLOSED.includes(a.error ?? ''))) failures.push(`no answer: ${where}`);
    return;
  }
  if (a.status >= 500) failures.push(`5xx: ${where}`);
  const type = String(a.headers['content-type'] ?? '');
  // jsonError: an error answer must be the contract's JSON, whatever refused the request.
  if (opts.jsonError && a.status >= 400 && !(/json/i.test(type) && a.body)) failures.push(`error answer is not JSON: ${where}`);
  if (/json/i.test(type) && a.body && a.status >= 400) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(a.body);
    } catch {
      failures.push(`error body is not JSON: ${where}`);
      return;
    }
    const p = parsed as Record<string, unknown>;
    if (!p || typeof p !== 'object' || typeof p.code !== 'string' || typeof p.message !== 'string' || !/^[a-z][a-z0-9_]*$/.test(p.code)) {
      failures.push(`error body is not {code, message}: ${where}`);
    }
  }
}

/** Runs the requests with `concurrency` in flight. */
async function runAll<T>(items: T[], concurrency: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}

// Deterministic pseudo-random numbers, so a failure reproduces.
const rng = mulberry32;
let rand = rng(20261121);
beforeEach(() => {
  rand = rng(20261121);
  failures.length = 0;
  checked = 0;
});
const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];

const json = { 'content-type': 'application/json' };
const bearer = () => ({ authorization: `Bearer ${token}` });

/** Every JSON-taking endpoint, with its fields and the headers it needs. */
function endpoints() {
  return [
    { method: 'POST', path: `/api/v1/session/${sessionId}/event`, headers: bearer(), fields: { name: 'signup' }, nested: {} },
    {
      method: 'POST',
      path: '/api/v1/event',
      headers: {},
      fields: { secret_key: secretKey, probe_id: 'prb_x', ip: '192.0.2.1', email: 'a@example.com', name: 'A B', phone: '+12126647665', address: { city: 'New York' } },
      nested: { address: { address1: '1 Main St', address2: 'Apt 1', city: 'New York', state: 'NY', country: 'US', postal_code: '10001' } },
    },
    {
      method: 'POST',
      path: `/_vtr/api/sites/${siteId}/sessions`,
      headers: {},
      fields: { ip: '192.0.2.9', user_agent: 'Mozilla/5.0', url: 'https://example.com/', referrer: 'https://news.example/', language: 'en', timezone: 'UTC', page_views: 2, duration: 10, fingerprint: 'fp_hostile', custom_events: ['a'] },
      nested: {},
    },
    {
      method: 'POST',
      path: '/_vtr/api/sites',
      headers: {},
      fields: { name: 'Hostile', plan: 'paid', country: 'US', owner_email: 'o@example.com', conversion_events: ['conversion'], bounce_seconds: 10, excluded_countries: ['DE'], ip_allowlist: ['10.0.0.0/8'] },
      nested: {},
    },
    { method: 'PATCH', path: `/_vtr/api/sites/${siteId}`, headers: {}, fields: { name: 'Local site', bounce_seconds: 10 }, nested: {} },
    { method: 'POST', path: `/_vtr/api/sites/${siteId}/views`, headers: {}, fields: { name: 'v', filter: 'channel = paid', trigger_webhooks: false }, nested: {} },
    { method: 'POST', path: `/_vtr/api/sites/${siteId}/webhooks`, headers: {}, fields: { url: 'http://127.0.0.1:9/hook' }, nested: {} },
    { method: 'POST', path: `/_vtr/api/sites/${siteId}/sessions/simulate`, headers: {}, fields: { count: 1, seed: 1 }, nested: {} },
    { method: 'POST', path: '/_vtr/api/clock/advance', headers: {}, fields: { duration: '1s' }, nested: {} },
    { method: 'POST', path: '/_vtr/api/clock/set', headers: {}, fields: { timestamp: '2030-01-01T00:00:00' }, nested: {} },
    { method: 'POST', path: '/_vtr/agent/pageview', headers: {}, fields: { site_key: siteKey, url: 'https://example.com/', referrer: '', fingerprint: 'fp_x', language: 'en', timezone: 'UTC' }, nested: {} },
    { method: 'POST', path: '/_vtr/agent/event', headers: {}, fields: { site_key: siteKey, session_id: sessionId, probe_id: 'prb_x', name: 'e' }, nested: {} },
    { method: 'POST', path: '/_vtr/agent/ping', headers: {}, fields: { site_key: siteKey, session_id: sessionId, probe_id: 'prb_x', url: 'https://example.com/' }, nested: {} },
  ];
}

const WRONG_VALUES: unknown[] = [
  null, true, false, 0, -1, 1.5, -0, 1e308, -1e308, 2 ** 53 + 2, '', ' ', 'x', '\u0000', 'x'.repeat(5000), '😀', '\u202Eevil',
  [], [1], [null], ['a', 1], {}, { a: 1 }, [[[[]]]], { $gt: '' }, { toString: 'x' }, { __proto__: { polluted: true } },
];

function deep(levels: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? `${'['.repeat(levels)}${']'.repeat(levels)}` : `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
}

beforeAll(async () => {
  // --clock manual: the clock routes accept moves, so hostile durations and timestamps reach the clock.
  server = await startServer(['--db', join(tempDir('vtr-hostile-'), 'vtr.db'), '--clock', 'manual']);
  port = Number(new URL(server.origin).port);
  const s = server.site!;
  siteId = s.site_id;
  token = s.access_token;
  secretKey = s.secret_key;
  siteKey = s.site_key;
  const r = await send('POST', `/_vtr/api/sites/${siteId}/sessions`, { body: '{}', headers: json });
  expect(r.status).toBe(201);
  sessionId = JSON.parse(r.body).session_id;
});

afterAll(async () => {
  agent.destroy();
  if (!server) return;
  // A server that no longer stops on SIGTERM is a failure, but must not outlive the test run.
  const killer = setTimeout(() => server.child.kill('SIGKILL'), 15_000);
  const code = await server.stop('SIGTERM');
  clearTimeout(killer);
  expect(code, 'the server stops cleanly on SIGTERM after all that').toBe(0);
});

/** After each group: still alive, still answering, nothing unexpected logged. */
async function expectHealthy(): Promise<void> {
  expect(server.child.exitCode, `server exited; stderr:\n${server.stderr().slice(-2000)}`).toBeNull();
  const h = await send('GET', '/_vtr/health');
  expect(h.status).toBe(200);
  expect(JSON.parse(h.body).status).toBe('ok');
  const g = await send('GET', `/api/v1/session/${sessionId}`, { headers: bearer() });
  expect(g.status, g.body).toBe(200);
  // Each distinct unexpected error once, with the top of its stack.
  const lines = server.stderr().split('\n');
  const unexpected = new Set<string>();
  lines.forEach((l, i) => {
    if (/unexpected error|console error/i.test(l)) unexpected.add(lines.slice(i, i + 5).join('\n'));
  });
  expect([...unexpected].join('\n---\n')).toBe('');
  expect(failures, failures.slice(0, 20).join('\n')).toEqual([]);
}

describe('hostile HTTP input', () => {
  it('json bodies: malformed, truncated and mutated JSON never get a 5xx', async () => {
    const valid = endpoints().map((e) => ({ e, text: JSON.stringify({ ...e.fields, ...e.nested }) }));
    const cases: Array<{ method: string; path: string; headers: Record<string, string>; body: string | Buffer }> = [];
    const fixed = ['{', '}', '[', ']', '{"', '{"name":', '{"name":"x"', '{"name":"x",}', "{'name':'x'}", 'nul', 'NaN', 'Infinity', '-', '1e', '"\\u12"', '"\\x41"', '{"a":1}{"b":2}', '\u0000', '\uFEFF{}', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{"x":1}}}', ' \n\t ', '{"name":"\\ud800"}', '{"a":' + '9'.repeat(400) + '}', '1'.repeat(10_000), '"' + '\\'.repeat(1001) + '"'];
    for (const { e, text } of valid) {
      for (const f of fixed) cases.push({ method: e.method, path: e.path, headers: { ...json, ...e.headers }, body: f });
      // Every prefix length class of the valid body.
      for (let n = 0; n < text.length; n += Math.max(1, Math.floor(text.length / 12))) cases.push({ method: e.method, path: e.path, headers: { ...json, ...e.headers }, body: text.slice(0, n) });
      // Random byte mutations of the valid body.
      for (let k = 0; k < 30; k++) {
        const b = Buffer.from(text);
        for (let m = 0; m < 1 + Math.floor(rand() * 4); m++) {
          const i = Math.floor(rand() * b.length);
          const op = rand();
          if (op < 0.5) b[i] = Math.floor(rand() * 256);
          else if (op < 0.75) b[i] = pick([0x22, 0x7b, 0x7d, 0x5b, 0x5d, 0x2c, 0x3a, 0x5c, 0x00]);
          else b[i] = 0x20;
        }
        cases.push({ method: e.method, path: e.path, headers: { ...json, ...e.headers }, body: b });
      }
    }
    await runAll(cases, 8, async (c) => check(`${c.method} ${c.path} ${String(c.body).slice(0, 40)}`, await send(c.method, c.path, { body: c.body, headers: c.headers })));
    await expectHealthy();
    expect(cases.length).toBeGreaterThan(500);
  });

  it('json fields: a wrong type at every field is a 4xx, never a 5xx', async () => {
    const cases: Array<{ method: string; path: string; headers: Record<string, string>; body: string }> = [];
    for (const e of endpoints()) {
      const all = { ...e.fields, ...e.nested } as Record<string, unknown>;
      for (const field of Object.keys(all)) {
        for (const v of WRONG_VALUES) cases.push({ method: e.method, path: e.path, headers: { ...json, ...e.headers }, body: JSON.stringify({ ...all, [field]: v }) });
      }
      for (const [outer, inner] of Object.entries(e.nested)) {
        for (const field of Object.keys(inner as object)) {
          for (const v of WRONG_VALUES) cases.push({ method: e.method, path: e.path, headers: { ...json, ...e.headers }, body: JSON.stringify({ ...all, [outer]: { ...(inner as object), [field]: v } }) });
        }
      }
      // Not an object at all, and unknown fields.
      for (const v of WRONG_VALUES) cases.push({ method: e.method, path: e.path, headers: { ...json, ...e.headers }, body: JSON.stringify(v) });
      cases.push({ method: e.method, path: e.path, headers: { ...json, ...e.headers }, body: JSON.stringify({ ...all, unknown_field: 1, 'weird key \u0000': [] }) });
    }
    await runAll(cases, 8, async (c) => check(`${c.method} ${c.path} ${c.body.slice(0, 80)}`, await send(c.method, c.path, { body: c.body, headers: c.headers })));
    await expectHealthy();
    expect(cases.length).toBeGreaterThan(1000);
  });

  it('json size: deep nesting, huge strings and arrays under and over 1 MiB', async () => {
    const bigUnder = 1024 * 1024 - 1000;
    const bodies: Array<{ label: string; body: string }> = [
      { label: 'array nested 100k', body: deep(100_000, 'array') },
      { label: 'object nested 100k', body: deep(100_000, 'object') },
      { label: 'field nested 50k', body: `{"name":${deep(50_000, 'array')}}` },
      { label: 'unclosed nesting 100k', body: '['.repeat(100_000) },
      { label: 'string just under 1 MiB', body: JSON.stringify({ name: 'x'.repeat(bigUnder) }) },
      { label: 'array of 200k numbers', body: JSON.stringify({ custom_events: Array.from({ length: 200_000 }, (_, i) => i) }) },
      { label: 'array of 100k strings', body: JSON.stringify({ custom_events: Array.from({ length: 100_000 }, () => 'e') }) },
      { label: 'object with 50k keys', body: JSON.stringify(Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, i]))) },
      { label: 'string 1.5 MiB', body: JSON.stringify({ name: 'y'.repeat(1.5 * 1024 * 1024) }) },
      { label: 'array 2 MiB', body: JSON.stringify({ custom_events: Array.from({ length: 400_000 }, () => 'abc') }) },
    ];
    for (const e of endpoints()) {
      for (const b of bodies) {
        const a = await send(e.method, e.path, { body: b.body, headers: { ...json, ...e.headers } });
        // Over the limit with a declared length the server may close before the client finished writing.
        const over = Buffer.byteLength(b.body) > 1024 * 1024;
        check(`${e.method} ${e.path} ${b.label}`, a, { allowTransportError: over });
        // Refused: a 413, or the connection closed while the client was still writing.
        if (over) expect([413, ...CLOSED], `${e.path} ${b.label}`).toContain(a.status || a.error);
      }
    }
    await expectHealthy();
  });

  it('body limit: over 1 MiB with and without Content-Length, chunked, and lying lengths', async () => {
    const path = `/api/v1/session/${sessionId}/event`;
    const big = Buffer.alloc(3 * 1024 * 1024, 0x20);
    // Declared too large: refused before reading.
    const declared = await sendRaw(`POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${50 * 1024 * 1024}\r\n\r\n{"name":`);
    check('declared 50 MiB', declared);
    expect(declared.status).toBe(413);
    // Chunked, no length: refused once past the limit.
    const chunked = await send('POST', path, { body: big, headers: { ...json, ...bearer() }, chunked: true });
    check('chunked 3 MiB', chunked, { allowTransportError: true });
    expect([413, ...CLOSED]).toContain(chunked.status || chunked.error);
    const rawChunked = await sendRaw(
      Buffer.concat([
        Buffer.from(`POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`),
        ...Array.from({ length: 24 }, () => Buffer.concat([Buffer.from('10000\r\n'), Buffer.alloc(0x10000, 0x20), Buffer.from('\r\n')])),
      ]),
    );
    check('raw chunked 1.5 MiB', rawChunked);
    expect(rawChunked.status).toBe(413);
    // Content-Length larger than what is sent, then the client goes away: no answer is possible, but no crash or log either.
    await sendRaw(`POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":"trunc`, 300);
    await sendRaw(`POST /api/v1/event HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n100\r\n{"secret_key":`, 300);
    // Bad chunk framing, conflicting lengths, bad lengths: Node's parser answers 400.
    for (const raw of [
      `POST ${path} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n`,
      `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`,
      `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n{}`,
      `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n{}`,
      `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
      `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999\r\n\r\n{}`,
    ]) {
      check(`raw ${raw.split('\r\n')[2]}`, await sendRaw(raw, 1500), { allowTransportError: true });
    }
    await expectHealthy();
  });

  it('encoding: invalid UTF-8, NUL bytes, emoji and RTL text', async () => {
    const path = `/api/v1/session/${sessionId}/event`;
    const invalid = [[0xff], [0xfe, 0xff], [0xc3, 0x28], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82], [0x80], [0xf8, 0x88, 0x80, 0x80, 0x80]];
    const bodies: Buffer[] = [];
    for (const seq of invalid) {
      bodies.push(Buffer.concat([Buffer.from('{"name":"'), Buffer.from(seq), Buffer.from('"}')]));
      bodies.push(Buffer.from(seq));
    }
    bodies.push(Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00])); // UTF-16LE with BOM
    bodies.push(Buffer.from('{"name":"a\u0000b"}'));
    bodies.push(Buffer.from('{"name":"\\u0000"}'));
    for (const name of ['😀'.repeat(25), '\u202Eevil\u202C', 'שלום עולם', 'مرحبا', 'e\u0301\u0301\u0301', '\uFFFF', '\uD83D', 'null', '<script>alert(1)</script>', '${jndi:ldap://x}', '../../etc/passwd']) {
      bodies.push(Buffer.from(JSON.stringify({ name })));
    }
    const targets = [
      { path, headers: { ...json, ...bearer() } },
      { path: '/api/v1/event', headers: json },
      { path: `/_vtr/api/sites/${siteId}/sessions`, headers: json },
      { path: '/_vtr/api/sites', headers: json },
    ];
    for (const t of targets) {
      await runAll(bodies, 4, async (b) => check(`${t.path} ${b.toString('hex').slice(0, 40)}`, await send('POST', t.path, { body: b, headers: t.headers })));
    }
    // Emoji, RTL and NUL in paths and queries.
    for (const p of ['/api/v1/session/%F0%9F%98%80', '/api/v1/session/%E2%80%AEx', '/api/v1/session/a%00b', '/api/v1/session/%00', '/_vtr/api/sites/%00', '/_vtr/api/sessions?where=channel%20%3D%20%22a%00b%22', '/_vtr/api/sessions?site=%00', '/api/v1/session/%C0%AF', '/api/v1/session/%FF', '/api/v1/session/%E0%A4%A', '/api/v1/session/%', '/_vtr/api/sessions?where=%', '/_vtr/api/sessions?where=%E0%A4%A']) {
      check(`GET ${p}`, await send('GET', p, { headers: bearer() }));
    }
    await expectHealthy();
  });

  it('content types: a body that is not JSON is a 415 or 400, never a 5xx', async () => {
    const types = ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonp', 'application/json; charset=utf-16', 'application/json;;;', 'application/vnd.api+json', 'application/json-seq', '*/*', 'json', '', 'application/json; charset=\u00ff', 'text/html; charset=utf-8', 'application/xml'];
    for (const e of endpoints()) {
      for (const t of types) {
        const headers: Record<string, string> = { ...e.headers };
        if (t) headers['content-type'] = t;
        check(`${e.path} ${t}`, await send(e.method, e.path, { body: JSON.stringify(e.fields), headers }));
        check(`${e.path} ${t} form`, await send(e.method, e.path, { body: 'name=x&a=%ff', headers }));
      }
      check(`${e.path} no content-type`, await send(e.method, e.path, { body: JSON.stringify(e.fields), headers: e.headers }));
    }
    await expectHealthy();
  });

  it('methods: unknown and unusual methods over raw sockets', async () => {
    const methods = ['PATCH', 'PUT', 'DELETE', 'TRACE', 'OPTIONS', 'HEAD', 'CONNECT', 'PROPFIND', 'MKCOL', 'PURGE', 'QUERY', 'FOO', 'get', 'Get', 'G E T', 'GET\u0000', 'X'.repeat(1000), '', '💥'];
    const paths = ['/api/v1/session/x', `/api/v1/session/${sessionId}`, `/api/v1/session/${sessionId}/event`, '/api/v1/event', '/_vtr/api/sites', '/_vtr/health', '/', '/agent.js', '/nope', '*'];
    const cases: string[] = [];
    for (const m of methods) for (const p of paths) {
      cases.push(`${m} ${p} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`);
    }
    await runAll(cases, 8, async (raw) => check(`raw ${raw.split('\r\n')[0].slice(0, 60)}`, await sendRaw(raw), { allowTransportError: true }));
    // Known path, wrong method: 405 with an Allow header.
    for (const m of ['PUT', 'DELETE', 'PATCH', 'TRACE']) {
      const a = await sendRaw(`${m} /api/v1/session/${sessionId} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n\r\n`);
      check(`${m} session`, a);
      expect(a.status, m).toBe(405);
      expect(a.headers.allow).toMatch(/GET/);
    }
    // Garbage request lines and protocol versions.
    for (const raw of ['OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n', 'GET /_vtr/health HTTP/1.1\r\nHost: [::bad\r\n\r\n', 'GET /_vtr/health HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n', '\r\n\r\n', 'GET\r\n\r\n', 'GET / HTTP/9.9\r\n\r\n', 'GET / HTTP/1.1\r\n\r\n', 'GET /_vtr/health HTTP/1.0\r\n\r\n', '\u0000\u0001\u0002\u0003', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'GET /' + 'a'.repeat(100_000) + ' HTTP/1.1\r\nHost: x\r\n\r\n', 'GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n', 'GET / HTTP/1.1\r\nHost: x\r\n: empty-name\r\n\r\n', 'GET / HTTP/1.1\nHost: x\n\n']) {
      // Blank lines before a request line are skipped (RFC 9112 §2.2): "\r\n\r\n" is not a request yet.
      check(`raw ${JSON.stringify(raw.slice(0, 30))}`, await sendRaw(raw, 1500), { allowTransportError: true, jsonError: true, incomplete: raw === '\r\n\r\n' });
    }
    await expectHealthy();
  });

  it('paths: traversal attempts read no file and get a 4xx', async () => {
    const paths = [
      '/api/v1/session/..%2f..%2fetc%2fpasswd',
      '/api/v1/session/..%2F..%2F..%2Fpackage.json',
      '/api/v1/session/../../etc/passwd',
      '/api/v1/%2e%2e/%2e%2e/etc/passwd',
      '/api/v1/session/%252e%252e%252fetc%252fpasswd',
      '/api/v1/session/..%5c..%5cetc%5cpasswd',
      '/api/v1/session/....//....//etc/passwd',
      '/agent.js/../../package.json',
      '/agent.js%2f..%2f..%2fpackage.json',
      '/_vtr/console/..%2f..%2fpackage.json',
      '/_vtr/console/sessions/..%2f..%2f..%2fetc%2fpasswd',
      '/_vtr/api/sites/..%2f..%2f..%2fetc%2fpasswd',
      '/_vtr/api/sessions/..%2f..%2fetc%2fpasswd',
      '//etc/passwd',
      '/%2e%2e%2f%2e%2e%2fetc%2fpasswd',
      '/static/../../../../etc/passwd',
      '/node_modules/../package.json',
      '/.git/config',
      '/.vtr/vtr.db',
      '/dist/cli.js',
      '/_vtr/demo/..%2f..%2fpackage.json',
    ];
    for (const p of paths) {
      for (const a of [await send('GET', p, { headers: bearer() }), await sendRaw(`GET ${p} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n\r\n`)]) {
        check(`GET ${p}`, a, { allowTransportError: true });
        expect(a.body, p).not.toMatch(/root:.*:0:0|"name":\s*"vtr"|\[core\]|SQLite format/);
      }
    }
    await expectHealthy();
  });

  it('injection: SQL in ids, filters and site ids changes nothing', async () => {
    const evil = [
      "' OR '1'='1", "' OR 1=1 --", '" OR 1=1 --', "1; DROP TABLE sessions; --", "x'); DELETE FROM sessions; --", "' UNION SELECT * FROM sites --",
      "%' OR '%'='", '\\', "''", '`', '*', '%', '_', '?', ':name', '@id', '$1', 'NULL', '0x00', "ses_' || (SELECT secret_key FROM sites) || '",
    ];
    const cases: Array<{ path: string; headers?: Record<string, string> }> = [];
    for (const e of evil) {
      const id = encodeURIComponent(e);
      cases.push({ path: `/api/v1/session/${id}`, headers: bearer() });
      cases.push({ path: `/_vtr/api/sessions/${id}` });
      cases.push({ path: `/_vtr/api/sites/${id}` });
      cases.push({ path: `/_vtr/api/sites/${id}/sessions` });
      cases.push({ path: `/_vtr/api/sites/${id}/tokens` });
      cases.push({ path: `/_vtr/api/sites/${id}/keys` });
      cases.push({ path: `/_vtr/api/views/${id}` });
      cases.push({ path: `/_vtr/api/webhooks/${id}` });
      cases.push({ path: `/_vtr/api/webhooks/${id}/events` });
      cases.push({ path: `/_vtr/api/webhook-events/${id}` });
      cases.push({ path: `/_vtr/api/checks/${id}` });
      cases.push({ path: `/_vtr/api/logs/${id}` });
      cases.push({ path: `/_vtr/api/sessions?site=${id}` });
      cases.push({ path: `/_vtr/api/sessions?before=${id}` });
      cases.push({ path: `/_vtr/api/sessions?limit=${id}` });
      cases.push({ path: `/_vtr/api/views?site=${id}` });
      cases.push({ path: `/_vtr/api/webhooks?site=${id}` });
      cases.push({ path: `/api/v1/session/${sessionId}`, headers: { authorization: `Bearer ${e}` } });
      for (const f of [`channel = "${e.replace(/"/g, '\\"')}"`, `channel = '${e.replace(/'/g, "\\'")}'`, `risks contains "${e.replace(/"/g, '\\"')}"`, `city contains '${e.replace(/'/g, "\\'")}'`, `site_id in ("${e.replace(/"/g, '\\"')}", x)`, e, `channel = paid ${e}`, `(channel = paid) ${e}`]) {
        cases.push({ path: `/_vtr/api/sessions?where=${encodeURIComponent(f)}` });
      }
    }
    await runAll(cases, 8, async (c) => {
      const a = await send('GET', c.path, { headers: c.headers ?? {} });
      check(`GET ${c.path}`, a);
      // An injected filter never widens the result to every session.
      if (c.path.startsWith('/_vtr/api/sessions?where=') && a.status === 200) {
        const rows = JSON.parse(a.body) as unknown[];
        expect(rows.length, c.path).toBe(0);
      }
    });
    for (const e of evil) {
      check('DELETE token', await send('DELETE', `/_vtr/api/tokens/${encodeURIComponent(e)}`));
      check('POST event with evil name', await send('POST', `/api/v1/session/${sessionId}/event`, { body: JSON.stringify({ name: e.slice(0, 100) }), headers: { ...json, ...bearer() } }));
      check('check with evil secret', await send('POST', '/api/v1/event', { body: JSON.stringify({ secret_key: e, ip: e, email: e, phone: e, probe_id: e }), headers: json }));
    }
    // The data is all still there, and the evil names were stored as plain text.
    const g = await send('GET', `/api/v1/session/${sessionId}`, { headers: bearer() });
    expect(g.status).toBe(200);
    expect(JSON.parse(g.body).custom_events).toEqual(expect.arrayContaining(["' OR '1'='1", '1; DROP TABLE sessions; --']));
    const sites = await send('GET', '/_vtr/api/sites');
    expect(JSON.parse(sites.body).some((s: { site_id: string }) => s.site_id === siteId)).toBe(true);
    await expectHealthy();
  });

  it('filters: random filter text in ?where= is a 200 or a 400 invalid_filter', async () => {
    const tokens = ['channel', 'risk_level', 'risks', 'page_views', 'created_at', 'returned', 'city', 'nope', '=', '!=', '<', '<=', '>', '>=', 'in', 'not', 'contains', 'is', 'null', 'and', 'or', '(', ')', ',', '"x"', "'y'", '"', "'", '\\', '1', '-1.5', '1e9', 'true', 'paid', 'invalid', '💥', '\u0000', ';', '--', '/*', '%', '!'];
    const filters: string[] = [];
    for (let i = 0; i < 400; i++) {
      const n = 1 + Math.floor(rand() * 9);
      filters.push(Array.from({ length: n }, () => pick(tokens)).join(pick([' ', ' ', '', '  '])));
    }
    filters.push('('.repeat(1000) + 'channel = paid' + ')'.repeat(1000), 'not '.repeat(1000) + 'channel = paid', 'channel = paid or '.repeat(300) + 'channel = paid', 'x'.repeat(10_000), `channel in (${Array.from({ length: 2000 }, (_, i) => `v${i}`).join(',')})`);
    await runAll(filters, 8, async (f) => {
      const a = await send('GET', `/_vtr/api/sessions?where=${encodeURIComponent(f)}`);
      check(`where ${f.slice(0, 60)}`, a);
      if (a.status !== 200 && a.status !== 414 && a.status !== 431) {
        expect(a.status, f.slice(0, 100)).toBe(400);
        expect(JSON.parse(a.body).code).toMatch(/invalid_filter|invalid_request/);
      }
    });
    await expectHealthy();
  });

  it('headers: extreme sizes get a 431 or 400, never a 5xx', async () => {
    const path = `/api/v1/session/${sessionId}`;
    const big = 'a'.repeat(64 * 1024);
    const raws = [
      `GET ${path} HTTP/1.1\r\nHost: x\r\nX-Big: ${big}\r\n\r\n`,
      `GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${big}\r\n\r\n`,
      `GET ${path} HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 3000 }, (_, i) => `X-H${i}: v`).join('\r\n')}\r\n\r\n`,
      `GET ${path} HTTP/1.1\r\nHost: x\r\nCookie: ${'c=1; '.repeat(5000)}\r\n\r\n`,
      `GET ${path} HTTP/1.1\r\nHost: ${big}\r\n\r\n`,
    ];
    for (const raw of raws) {
      const a = await sendRaw(raw);
      check(`header ${raw.length}`, a, { allowTransportError: true, jsonError: true });
      expect([400, 431, ...CLOSED], `header ${raw.length}`).toContain(a.status || a.error);
      if (a.status === 431) expect(JSON.parse(a.body).code).toBe('headers_too_large');
    }
    // Just under Node's limit: handled normally (401 for a bogus token, not a crash).
    const under = await send('GET', path, { headers: { authorization: `Bearer ${'t'.repeat(12 * 1024)}` } });
    check('12 KiB token', under);
    expect(under.status).toBe(401);
    // Odd but legal header values.
    for (const v of ['Bearer', 'Bearer ', 'Bearer  x  y', 'bearer ' + token, 'Basic dXNlcjpwYXNz', 'Bearer ' + token + ' extra', `Bearer ${token}\t`, 'Bearer \u00ff']) {
      const a = await sendRaw(`GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: ${v}\r\nConnection: close\r\n\r\n`);
      check(`authorization ${v.slice(0, 20)}`, a, { allowTransportError: true });
    }
    // Cookie with bad percent-encoding on the console and management API.
    for (const p of ['/_vtr/api/sites', '/_vtr/console/sessions', '/']) {
      check(`cookie ${p}`, await sendRaw(`GET ${p} HTTP/1.1\r\nHost: x\r\nCookie: vtr_admin=%E0%A4%A; other=%\r\nConnection: close\r\n\r\n`));
    }
    await expectHealthy();
  });

  it('query parameters: hostile values on every list route, console page and form', async () => {
    const values = ['-1', '0', '1.5', '1e309', 'NaN', 'Infinity', '99999999999999999999', '', '%00', '%', '%E0%A4%A', encodeURIComponent("' OR 1=1 --"), encodeURIComponent('😀\u202E'), 'x'.repeat(5000), encodeURIComponent('channel = paid')];
    const bases = [
      (v: string) => `/_vtr/api/sessions?limit=${v}&before=${v}&site=${v}`,
      (v: string) => `/_vtr/api/checks?limit=${v}&site=${v}&session=${v}&before=${v}`,
      (v: string) => `/_vtr/api/logs?limit=${v}&before=${v}&site=${v}`,
      (v: string) => `/_vtr/api/views?site=${v}`,
      (v: string) => `/_vtr/api/webhooks?site=${v}`,
      (v: string) => `/_vtr/api/notifications?limit=${v}&site=${v}`,
      (v: string) => `/_vtr/api/webhooks/${v}/events?status=${v}&limit=${v}`,
      (v: string) => `/_vtr/api/sessions?limit=1&limit=${v}&where=${v}`,
      (v: string) => `/_vtr/demo?site=${v}`,
      (v: string) => `/_vtr/console/sessions?where=${v}&limit=${v}&before=${v}&site=${v}`,
      (v: string) => `/_vtr/console/sessions/${v}`,
      (v: string) => `/_vtr/console/sessions/${v}/row`,
      (v: string) => `/_vtr/console/checks/${v}/row`,
      (v: string) => `/_vtr/console/checks?limit=${v}&before=${v}&site=${v}`,
      (v: string) => `/_vtr/console/checks/${v}`,
      (v: string) => `/_vtr/console/logs?limit=${v}&before=${v}&site=${v}`,
      (v: string) => `/_vtr/console/outbox?site=${v}`,
      (v: string) => `/_vtr/console/sites?site=${v}`,
      (v: string) => `/_vtr/console/tokens?site=${v}`,
      (v: string) => `/_vtr/console/webhooks?site=${v}`,
      (v: string) => `/_vtr/console/views?site=${v}`,
      (v: string) => `/?admin_token=${v}&site=${v}`,
    ];
    const paths = bases.flatMap((b) => values.map((v) => b(v)));
    await runAll(paths, 8, async (p) => check(`GET ${p.slice(0, 80)}`, await send('GET', p, { headers: { accept: 'text/html' } })));
    // Console forms with garbage (same-origin, as a browser posts them).
    const forms = ['a=1', 'token=' + encodeURIComponent("' OR 1=1"), 'token=%', '%=%', '&&&', 'x'.repeat(100_000), Buffer.from([0xff, 0xfe, 0x3d, 0x00]).toString('latin1')];
    for (const p of ['/_vtr/console/tokens', '/_vtr/console/tokens/revoke', `/_vtr/console/sites/${encodeURIComponent("'x")}/rotate`, '/_vtr/console/nope', '/_vtr/demo/signup']) {
      for (const f of forms) {
        for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data; boundary=zz', 'multipart/form-data', 'text/plain']) {
          check(`POST ${p} ${type}`, await send('POST', p, { body: f, headers: { 'content-type': type, origin: server.origin } }));
        }
      }
    }
    await expectHealthy();
  });

  it('clock: hostile durations and timestamps never break the clock', async () => {
    const durations: unknown[] = ['1e308ms', '99999999999999999999d', '9'.repeat(400), 1e308, Number.MAX_SAFE_INTEGER, 2 ** 62, '1.7976931348623157e308', '-1s', '0', '1w1w1w', '1' + 'd'.repeat(1000), 'NaN', 'Infinity'];
    for (const d of durations) check(`advance ${String(d).slice(0, 30)}`, await send('POST', '/_vtr/api/clock/advance', { body: JSON.stringify({ duration: d }), headers: json }));
    for (const t of ['275760-09-13T00:00:00', '+275760-09-13T00:00:00', '9999-12-31T23:59:59.999999', '99999-01-01', '2030-02-30T00:00:00', '0000-00-00T00:00:00', '1970-01-01T00:00:00Z', '2040-01-01T00:00:00+99:99', 'now', '']) {
      check(`set ${t}`, await send('POST', '/_vtr/api/clock/set', { body: JSON.stringify({ timestamp: t }), headers: json }));
    }
    // Whatever was accepted, the clock still reads, and writes still work.
    const clock = await send('GET', '/_vtr/api/clock');
    check('clock', clock);
    expect(clock.status).toBe(200);
    const s = await send('POST', `/_vtr/api/sites/${siteId}/sessions`, { body: '{}', headers: json });
    check('create after clock moves', s);
    expect(s.status).toBe(201);
    const e = await send('POST', `/api/v1/session/${sessionId}/event`, { body: '{"name":"after-clock"}', headers: { ...json, ...bearer() } });
    check('event after clock moves', e);
    expect(e.status).toBe(200);
    await expectHealthy();
  });

  it('state import: garbage is refused without touching the data', async () => {
    const bodies = ['{}', '[]', 'null', '"x"', '{"version":999}', '{"version":"1","tables":[]}', '{"tables":{"sessions":[{"session_id":1}]}}', '{"version":1,"tables":{"sites":"x"}}', deep(100_000, 'object'), deep(100_000, 'array'), `{"version":1,"tables":${deep(10_000, 'array')}}`, '{"vtr_state_version":1,"tables":{"sessions":"x"}}', '{"vtr_state_version":1,"tables":{"nope":[]}}', '{"vtr_state_version":1e308,"tables":{}}', '{"vtr_state_version":1,"tables":{"sessions":[{"nope":1}]}}', '{"vtr_state_version":1,"tables":{"sessions":[{"session_id":{"a":1}}]}}', `{"vtr_state_version":1,"tables":{"sessions":[${deep(50_000, 'array')}]}}`];
    for (const b of bodies) check(`PUT state ${b.slice(0, 40)}`, await send('PUT', '/_vtr/api/state', { body: b, headers: json }));
    await expectHealthy();
    expect(checked).toBe(bodies.length);
  });
});

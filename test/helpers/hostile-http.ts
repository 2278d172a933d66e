// Plumbing for the hostile HTTP tests (test/hardening/hostile-http-*.test.ts): a real `vtr serve`
// process, a client that never throws, raw sockets, and the invariants every answer must keep.
// Each test file starts its own target, so the files run apart and in any order.
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import http from 'node:http';
import net from 'node:net';
import { join } from 'node:path';
import { startServer, tempDir, type ServerProcess } from './vtr-process.js';
import { mulberry32 } from '../../src/sessions/simulate-plan.js';
import { httpRequest } from './raw-http.js';

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** A transport error instead of an answer (e.g. the server closed a connection it refused). */
  error?: string;
}

export interface CheckOptions {
  allowTransportError?: boolean;
  jsonError?: boolean;
  incomplete?: boolean;
}

export interface SendOptions {
  body?: string | Buffer;
  headers?: Record<string, string | number>;
  chunked?: boolean;
}

/** The server closed or reset the connection (as it may on a request it refuses): not a hang. */
export const CLOSED = ['ECONNRESET', 'EPIPE', 'aborted', 'closed'];

export const json = { 'content-type': 'application/json' };

export const WRONG_VALUES: unknown[] = [
  null, true, false, 0, -1, 1.5, -0, 1e308, -1e308, 2 ** 53 + 2, '', ' ', 'x', '\u0000', 'x'.repeat(5000), '😀', '\u202Eevil',
  [], [1], [null], ['a', 1], {}, { a: 1 }, [[[[]]]], { $gt: '' }, { toString: 'x' }, { __proto__: { polluted: true } },
];

export function deep(levels: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? `${'['.repeat(levels)}${']'.repeat(levels)}` : `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
}

/** Runs the requests with `concurrency` in flight. */
export async function runAll<T>(items: T[], concurrency: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}

/** One request through a node:http client (keep-alive pool). Never throws. */
export function send(agent: http.Agent, port: number, method: string, path: string, opts: SendOptions = {}): Promise<Answer> {
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
export function sendRaw(port: number, bytes: string | Buffer, waitMs = 3000): Promise<Answer> {
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

/** The invariants every answer must keep; returns what it broke (nothing when it kept them). */
export function checkAnswer(label: string, a: Answer, opts: CheckOptions = {}): string[] {
  const failures: string[] = [];
  const where = `${label} → ${a.status}${a.error ? ` (${a.error})` : ''} ${a.body.slice(0, 160)}`;
  if (a.status === -1) return failures; // never sent
  if (a.status === 0) {
    // Allowed: the server closing a connection it refused. Never: a hang, or a server not there.
    // incomplete: the bytes are not a whole request yet, so the server still waiting is right.
    const waiting = opts.incomplete && a.error === 'timeout';
    if (!waiting && (!opts.allowTransportError || !CLOSED.includes(a.error ?? ''))) failures.push(`no answer: ${where}`);
    return failures;
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
      return failures;
    }
    const p = parsed as Record<string, unknown>;
    if (!p || typeof p !== 'object' || typeof p.code !== 'string' || typeof p.message !== 'string' || !/^[a-z][a-z0-9_]*$/.test(p.code)) {
      failures.push(`error body is not {code, message}: ${where}`);
    }
  }
  return failures;
}

/** Every JSON-taking endpoint, with its fields and the headers it needs. */
export function endpoints(ids: { siteId: string; sessionId: string; secretKey: string; siteKey: string }, bearer: Record<string, string>) {
  const { siteId, sessionId, secretKey, siteKey } = ids;
  return [
    { method: 'POST', path: `/api/v1/session/${sessionId}/event`, headers: bearer, fields: { name: 'signup' }, nested: {} },
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

// Deterministic pseudo-random numbers, so a failure reproduces.
const SEED = 20261121;

/** A running server with one site and one session, and the client state the tests share. */
export interface HostileTarget {
  server: ServerProcess;
  siteId: string;
  token: string;
  secretKey: string;
  siteKey: string;
  sessionId: string;
  /** Broken invariants found by check() since the last reset(). */
  failures: string[];
  /** Answers check() looked at since the last reset(). */
  checked: number;
  send(method: string, path: string, opts?: SendOptions): Promise<Answer>;
  sendRaw(bytes: string | Buffer, waitMs?: number): Promise<Answer>;
  check(label: string, a: Answer, opts?: CheckOptions): void;
  rand(): number;
  pick<T>(xs: readonly T[]): T;
  bearer(): { authorization: string };
  endpoints(): ReturnType<typeof endpoints>;
  /** After each group: still alive, still answering, nothing unexpected logged, no failures. */
  expectHealthy(): Promise<void>;
  /** Per test: a test reports its own failures and counts, and draws the same numbers, in any order. */
  reset(): void;
  /** Stops the server with SIGTERM (SIGKILL after 15 s); resolves with its exit code. */
  stop(): Promise<number | null>;
}

export async function startHostileTarget(): Promise<HostileTarget> {
  // --clock manual: the clock routes accept moves, so hostile durations and timestamps reach the clock.
  const server = await startServer(['--db', join(tempDir('vtr-hostile-'), 'vtr.db'), '--clock', 'manual']);
  const port = Number(new URL(server.origin).port);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  const s = server.site!;
  let rand = mulberry32(SEED);
  const t: HostileTarget = {
    server,
    siteId: s.site_id,
    token: s.access_token,
    secretKey: s.secret_key,
    siteKey: s.site_key,
    sessionId: '',
    failures: [],
    checked: 0,
    send: (method, path, opts = {}) => send(agent, port, method, path, opts),
    sendRaw: (bytes, waitMs) => sendRaw(port, bytes, waitMs),
    check(label, a, opts = {}) {
      t.checked++;
      t.failures.push(...checkAnswer(label, a, opts));
    },
    rand: () => rand(),
    pick: (xs) => xs[Math.floor(rand() * xs.length)],
    bearer: () => ({ authorization: `Bearer ${t.token}` }),
    endpoints: () => endpoints(t, t.bearer()),
    async expectHealthy() {
      expect(server.child.exitCode, `server exited; stderr:\n${server.stderr().slice(-2000)}`).toBeNull();
      const h = await t.send('GET', '/_vtr/health');
      expect(h.status).toBe(200);
      expect(JSON.parse(h.body).status).toBe('ok');
      const g = await t.send('GET', `/api/v1/session/${t.sessionId}`, { headers: t.bearer() });
      expect(g.status, g.body).toBe(200);
      // Each distinct unexpected error once, with the top of its stack.
      const lines = server.stderr().split('\n');
      const unexpected = new Set<string>();
      lines.forEach((l, i) => {
        if (/unexpected error|console error/i.test(l)) unexpected.add(lines.slice(i, i + 5).join('\n'));
      });
      expect([...unexpected].join('\n---\n')).toBe('');
      expect(t.failures, t.failures.slice(0, 20).join('\n')).toEqual([]);
    },
    reset() {
      rand = mulberry32(SEED);
      t.failures.length = 0;
      t.checked = 0;
    },
    async stop() {
      agent.destroy();
      // A server that no longer stops on SIGTERM is a failure, but must not outlive the test run.
      const killer = setTimeout(() => server.child.kill('SIGKILL'), 15_000);
      const code = await server.stop('SIGTERM');
      clearTimeout(killer);
      return code;
    },
  };
  try {
    const r = await t.send('POST', `/_vtr/api/sites/${t.siteId}/sessions`, { body: '{}', headers: json });
    expect(r.status).toBe(201);
    t.sessionId = JSON.parse(r.body).session_id;
  } catch (e) {
    // The tests will not run: the server must not outlive them.
    await t.stop();
    throw e;
  }
  return t;
}

/** This file's target: started before its tests (handed to `use`), reset before each, stopped after all. */
export function useHostileTarget(use: (target: HostileTarget) => void): void {
  let target: HostileTarget | undefined;
  beforeAll(async () => use((target = await startHostileTarget())));
  beforeEach(() => target?.reset());
  afterAll(async () => {
    if (!target) return;
    expect(await target.stop(), 'the server stops cleanly on SIGTERM after all that').toBe(0);
  });
}

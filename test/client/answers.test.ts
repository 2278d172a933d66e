// The client's check of what answered (src/client/answers.ts): an answer that is not the emulator's
// is a NotEmulatorError naming the URL; every route it lists is answered in its shape by a real emulator.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LISTED_ROUTES, routeOf } from '../../src/api/answers.js';
import { decodeAnswer, NotEmulatorError } from '../../src/client/answers.js';
import { ApiError, createApiClient } from '../../src/client/api-client.js';
import { eventStream } from '../../src/client/sse.js';
import { startEmulator, type RunningEmulator } from '../../src/index.js';

const URL_ = 'http://127.0.0.1:1/_vtr/api/clock';
const answer = (status: number, contentType: string, text: string) => ({ url: URL_, status, contentType, text });
const shape = (method: string, path: string) => routeOf(method, path)?.schema ?? null;
const notEmulator = (f: () => unknown): NotEmulatorError => {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(NotEmulatorError);
    return err as NotEmulatorError;
  }
  throw new Error('expected a NotEmulatorError');
};

describe('decodeAnswer', () => {
  it('decodeAnswer: JSON of the route’s shape is the data; the emulator’s {code, message} is the error', () => {
    expect(decodeAnswer(answer(200, 'application/json', '{"now":"2026-01-01T00:00:00.000000","mode":"system","offset_ms":0}'), shape('GET', '/_vtr/api/clock')))
      .toEqual({ data: { now: '2026-01-01T00:00:00.000000', mode: 'system', offset_ms: 0 } });
    expect(decodeAnswer(answer(200, 'application/json', '[]'), shape('GET', '/_vtr/api/sites'))).toEqual({ data: [] });
    expect(decodeAnswer(answer(404, 'application/json', '{"code":"not_found","message":"site x not found"}'), null))
      .toEqual({ error: { code: 'not_found', message: 'site x not found' } });
    // A route not listed only has to answer JSON.
    expect(decodeAnswer(answer(200, 'application/json', '{"anything":1}'), shape('GET', '/_vtr/health'))).toEqual({ data: { anything: 1 } });
  });

  it('decodeAnswer: an HTML page, any status, is not the emulator', () => {
    expect(notEmulator(() => decodeAnswer(answer(200, 'text/html; charset=utf-8', '<html></html>'), shape('GET', '/_vtr/api/clock'))).message)
      .toBe(`${URL_} did not answer like a vtr emulator (HTTP 200, text/html)`);
    expect(notEmulator(() => decodeAnswer(answer(404, 'text/html', '<h1>Not Found</h1>'), null)).message).toMatch(/\(HTTP 404, text\/html\)$/);
    expect(notEmulator(() => decodeAnswer(answer(502, '', ''), null)).message).toMatch(/\(HTTP 502, an empty body\)$/);
    expect(notEmulator(() => decodeAnswer(answer(200, 'application/json', ''), null)).message).toMatch(/\(HTTP 200, an empty body\)$/);
  });

  it('decodeAnswer: JSON of another shape is not the emulator, saying what is missing', () => {
    const clock = shape('POST', '/_vtr/api/clock/advance');
    expect(notEmulator(() => decodeAnswer(answer(200, 'application/json', '{}'), clock)).detail).toBe('HTTP 200, JSON without "now"');
    expect(notEmulator(() => decodeAnswer(answer(200, 'application/json', '{"now":5,"mode":"x"}'), clock)).detail).toBe('HTTP 200, JSON whose "now" is a number, not a string');
    expect(notEmulator(() => decodeAnswer(answer(200, 'application/json', '[]'), clock)).detail).toBe('HTTP 200, JSON array where an object was expected');
    expect(notEmulator(() => decodeAnswer(answer(200, 'application/json', '{}'), shape('GET', '/_vtr/api/sessions'))).detail).toBe('HTTP 200, JSON object where a list was expected');
    expect(notEmulator(() => decodeAnswer(answer(200, 'application/json', '[null]'), shape('GET', '/_vtr/api/sessions'))).detail).toMatch(/other than objects/);
    expect(notEmulator(() => decodeAnswer(answer(200, 'application/json', 'null'), shape('GET', '/api/v1/session/ses_1'))).detail).toBe('HTTP 200, JSON null where an object was expected');
    // An error without the emulator's {code, message} (another API's error JSON).
    expect(notEmulator(() => decodeAnswer(answer(404, 'application/json', '{"error":"Not Found"}'), null)).detail).toMatch(/without the emulator's \{code, message\}/);
    // A redirect is not an answer the emulator gives.
    expect(notEmulator(() => decodeAnswer(answer(301, 'text/html', '<a>moved</a>'), null)).status).toBe(301);
  });

  it('decodeAnswer: a check’s sections may be null (not sent) but not of another type', () => {
    const check = shape('POST', '/api/v1/event');
    // Every section not sent is null: the contract's answer to a check of nothing.
    const base = { id: 'chk_1', created_at: '2026-01-01T00:00:00.000000', session_id: null, risk_level: 'normal', risks: [], outcome: 'neutral', review: false, rules: [], external_id: null, device: null, ip: null, email: null, phone: null, address: null };
    expect(decodeAnswer(answer(200, 'application/json', JSON.stringify(base)), check)).toHaveProperty('data');
    expect(notEmulator(() => decodeAnswer(answer(200, 'application/json', JSON.stringify({ ...base, ip: 'x' })), check)).detail).toMatch(/"ip" is a string/);
  });
});

describe('api client against other servers', () => {
  let server: Server | null = null;
  afterEach(async () => {
    await new Promise((r) => (server ? server.close(r) : r(undefined)));
    server = null;
  });
  async function listen(status: number, contentType: string, body: string): Promise<string> {
    server = createServer((_req, res) => {
      res.writeHead(status, { 'content-type': contentType });
      res.end(body);
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it('api client: an HTML page is a NotEmulatorError naming the URL, not data', async () => {
    const origin = await listen(200, 'text/html', '<!doctype html><title>My app</title>');
    const client = createApiClient({ baseUrl: `${origin}/api/v1`, accessToken: 'at', secretKey: 'sk' });
    for (const call of [() => client.admin('GET', '/clock'), () => client.api('GET', '/session/ses_1'), () => client.check({ ip: '192.0.2.1' })]) {
      const err = await call().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(NotEmulatorError);
      expect((err as Error).message).toMatch(new RegExp(`^${origin}/(_vtr/api/clock|api/v1/session/ses_1|api/v1/event) did not answer like a vtr emulator \\(HTTP 200, text/html\\)$`));
    }
  });

  it('api client: JSON {} where a resource was expected is a NotEmulatorError; a query is not in the URL named', async () => {
    const origin = await listen(200, 'application/json', '{}');
    const client = createApiClient({ baseUrl: `${origin}/api/v1` });
    const err = await client.admin('GET', '/sessions', { query: { where: 'risk_level = invalid' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotEmulatorError);
    expect(err).toMatchObject({ url: `${origin}/_vtr/api/sessions`, detail: 'HTTP 200, JSON object where a list was expected' });
  });

  it('api client: a 404 text/html is a NotEmulatorError, not an ApiError', async () => {
    const origin = await listen(404, 'text/html', '<h1>Not Found</h1>');
    const err = await createApiClient({ baseUrl: `${origin}/api/v1` }).admin('GET', '/sites/default').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotEmulatorError);
    expect(err).not.toBeInstanceOf(ApiError);
  });

  it('eventStream: a page where the event stream should be is a NotEmulatorError', async () => {
    const origin = await listen(200, 'text/html', '<html></html>');
    const read = async () => {
      for await (const _ of eventStream({ url: `${origin}/_vtr/api/stream` })) void _;
    };
    await expect(read()).rejects.toThrow(new NotEmulatorError(`${origin}/_vtr/api/stream`, 200, 'HTTP 200, text/html where an event stream was expected'));
  });
});

describe('api client against the emulator', { timeout: 30_000 }, () => {
  let emu: RunningEmulator;
  let receiver: Server;
  let receiverUrl: string;
  beforeAll(async () => {
    emu = await startEmulator({ clock: 'manual', webhookTimeoutMs: 2000 });
    receiver = createServer((_req, res) => {
      res.writeHead(500);
      res.end('no');
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  });
  afterAll(async () => {
    await emu?.close();
    await new Promise((r) => receiver?.close(r));
  });

  it('api client: every route answers.ts lists is answered in its shape by a real emulator', async () => {
    const seen = new Set<string>();
    const c = emu.client;
    const admin = async <T = any>(method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> => {
      seen.add(routeOf(method, `/_vtr/api${path}`)!.route);
      return c.admin<T>(method, path, body === undefined ? {} : { body });
    };
    const api = async <T = any>(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<T> => {
      seen.add(routeOf(method, `/api/v1${path}`)!.route);
      return c.api<T>(method, path, body === undefined ? {} : { body });
    };
    const site = emu.site.siteId;

    await admin('GET', '/sites');
    await admin('GET', '/sites/default');
    const other = await admin<{ site_id: string }>('POST', '/sites', { name: 'Other' });
    await admin('GET', `/sites/${other.site_id}`);
    await admin('PATCH', `/sites/${other.site_id}`, { name: 'Other 2' });
    await admin('GET', `/sites/${other.site_id}/keys`);
    await admin('POST', `/sites/${other.site_id}/keys/rotate`);
    await admin('GET', `/sites/${other.site_id}/tokens`);
    const token = await admin<{ token: string }>('POST', `/sites/${other.site_id}/tokens`);
    await admin('GET', '/tokens');
    await admin('DELETE', `/tokens/${token.token}`);
    await admin('DELETE', `/sites/${other.site_id}`);

    const view = await admin<{ saved_view_id: string }>('POST', `/sites/${site}/views`, { name: 'Invalid', filter: 'risk_level = invalid', trigger_webhooks: true });
    await admin('GET', '/views');
    await admin('GET', `/sites/${site}/views`);
    await admin('GET', `/views/${view.saved_view_id}`);
    await admin('PATCH', `/views/${view.saved_view_id}`, { name: 'Invalid ones' });
    const rule = await admin<{ rule_id: string }>('POST', `/sites/${site}/rules`, { name: 'Tor', filter: 'risks contains tor', action: 'block' });
    await admin('GET', `/sites/${site}/rules`);
    await admin('GET', `/sites/${site}/rules/${rule.rule_id}`);
    await admin('PATCH', `/sites/${site}/rules/location`, { enabled: true });
    await admin('DELETE', `/sites/${site}/rules/${rule.rule_id}`);
    const hook = await admin<{ webhook_id: string }>('POST', `/sites/${site}/webhooks`, { url: receiverUrl });
    await admin('GET', '/webhooks');
    await admin('GET', `/sites/${site}/webhooks`);
    await admin('GET', `/webhooks/${hook.webhook_id}`);
    await admin('PATCH', `/webhooks/${hook.webhook_id}`, { url: receiverUrl });

    const session = await admin<{ session_id: string }>('POST', `/sites/${site}/sessions`, { ip: '203.0.113.9' });
    await admin('POST', `/sites/${site}/sessions/simulate`, { count: 3, seed: 1 });
    await admin('GET', '/sessions');
    await admin('GET', `/sessions/${session.session_id}`);
    await api('GET', `/session/${session.session_id}`);
    await api('POST', `/session/${session.session_id}/event`, { name: 'conversion' });
    await api('PUT', `/session/${session.session_id}/conversion`);
    seen.add(routeOf('POST', '/api/v1/event')!.route);
    const check = await c.check<{ id: string }>({ ip: '192.0.2.1' });
    await admin('GET', '/checks');
    await admin('GET', `/checks/${check.id}`);
    const [entry] = await admin<Array<{ request_id: string }>>('GET', '/logs');
    await admin('GET', `/logs/${entry.request_id}`);

    await admin('GET', '/clock');
    await admin('POST', '/clock/advance', { duration: '2m' }); // the failing event runs out of retries
    const now = await admin<{ now: string }>('GET', '/clock');
    await admin('POST', '/clock/set', { timestamp: new Date(Date.parse(now.now) + 60_000).toISOString() });
    const events = await admin<Array<{ webhook_event_id: string; status: string }>>('GET', `/webhooks/${hook.webhook_id}/events`);
    expect(events.map((e) => e.status)).toEqual(['failed']);
    await admin('GET', `/sessions/${session.session_id}/webhook-events`);
    await admin('GET', `/webhook-events/${events[0].webhook_event_id}`);
    await admin('POST', `/webhook-events/${events[0].webhook_event_id}/retry`);
    await admin('GET', '/notifications');
    await admin('POST', `/webhooks/${hook.webhook_id}/trigger`, {});
    await admin('POST', `/webhooks/${hook.webhook_id}/disable`);
    await admin('POST', `/webhooks/${hook.webhook_id}/enable`);
    await admin('DELETE', `/webhooks/${hook.webhook_id}`);
    await admin('DELETE', `/views/${view.saved_view_id}`);

    const state = await admin('GET', '/state');
    await admin('PUT', '/state', state);
    await admin('POST', '/state/reset');

    expect([...LISTED_ROUTES].filter((r) => !seen.has(r))).toEqual([]);
  });
});

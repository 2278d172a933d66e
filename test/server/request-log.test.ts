import { runInNewContext } from 'node:vm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { harness, type Harness } from '../helpers/emulator.js';
import { maskText } from '../../src/logs/mask.js';
import { createRequestLogger } from '../../src/logs/request-logger.js';
import { createStore } from '../../src/store/index.js';
import { createEventBus } from '../../src/events/bus.js';
import { createClock } from '../../src/domain/clock.js';
import { startEmulator } from '../../src/index.js';
import { TIMESTAMP } from '../helpers/emulator.js';
import type { RequestLogJson } from '../../src/domain/request-log.js';

type Entry = RequestLogJson;

let h: Harness;
beforeEach(() => {
  h = harness();
});
afterEach(async () => {
  await h.close();
});

const logs = async (q = '') => (await h.admin<Entry[]>('GET', `/logs${q}`)).body;

describe('request log', () => {
  it('keeps every public request, newest first, with status, duration, site and bodies', async () => {
    const s = await h.createSession();
    await h.api('GET', `/session/${s.session_id}`);
    await h.api('POST', `/session/${s.session_id}/event`, { body: { name: 'signup' } });
    const [event, get] = await logs();
    expect(event).toMatchObject({ method: 'POST', path: `/api/v1/session/${s.session_id}/event`, status: 200, site_id: h.site.site_id });
    expect(JSON.parse(event.request_body!)).toEqual({ name: 'signup' });
    expect(JSON.parse(event.response_body!)).toEqual({ success: true });
    expect(event.request_id).toMatch(/^req_/);
    expect(event.created_at).toMatch(TIMESTAMP);
    expect(event.duration_ms).toBeGreaterThanOrEqual(0);
    expect(get).toMatchObject({ method: 'GET', status: 200, request_body: null });
    expect(JSON.parse(get.response_body!).session_id).toBe(s.session_id);
  });

  it('logs failures too (401, 404 unknown path, 405, 415, bad JSON), and no management calls', async () => {
    await h.api('GET', '/session/ses_x', { token: null });
    await h.request('/api/v1/nowhere');
    await h.request('/api/v1/session/ses_x', { method: 'PUT' });
    await h.request('/api/v1/session/ses_x/event', { method: 'POST', headers: { 'content-type': 'text/plain', authorization: `Bearer ${h.token}` }, body: 'hi' });
    await h.request('/api/v1/session/ses_x/event', { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${h.token}` }, body: '{"name":' });
    const entries = await logs();
    expect(entries.map((e) => e.status)).toEqual([400, 415, 405, 404, 401]);
    expect(entries[0].request_body).toBe('{"name":');
    expect(JSON.parse(entries[0].response_body!).code).toBe('invalid_json');
    expect(entries.every((e) => e.path.startsWith('/api/v1/'))).toBe(true);
  });

  it('log: a request log that fails to record an entry still answers the request as usual', async () => {
    const s = await h.createSession();
    const logger = h.emulator.deps.requestLog!;
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    logger.record = () => {
      throw new Error('the log broke');
    };
    try {
      const got = await h.api('GET', `/session/${s.session_id}`);
      expect(got.status).toBe(200);
      expect(got.body.session_id).toBe(s.session_id);
      const sent = await h.api('POST', `/session/${s.session_id}/event`, { body: { name: 'signup' } });
      expect(sent).toMatchObject({ status: 200, body: { success: true } });
    } finally {
      stderr.mockRestore();
    }
  });

  it('log: keeps every entry when the global Uint8Array is another realm\'s (a jsdom test environment)', async () => {
    const s = await h.createSession();
    const own = globalThis.Uint8Array;
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    globalThis.Uint8Array = runInNewContext('Uint8Array') as Uint8ArrayConstructor;
    try {
      expect((await h.api('GET', `/session/${s.session_id}`)).status).toBe(200);
    } finally {
      globalThis.Uint8Array = own;
      stderr.mockRestore();
    }
    const [get] = await logs();
    expect(get).toMatchObject({ method: 'GET', path: `/api/v1/session/${s.session_id}`, status: 200 });
    expect(JSON.parse(get.response_body!).session_id).toBe(s.session_id);
  });

  it('log: /api/v1 itself, a query string, a percent-encoded path and a HEAD are logged; lookalike paths are not', async () => {
    const s = await h.createSession();
    await h.request('/api/v1');
    await h.request(`/api/v1/session/${s.session_id}?fields=all`, { headers: { authorization: `Bearer ${h.token}` } });
    await h.request(`/api/%761/session/${s.session_id}`, { headers: { authorization: `Bearer ${h.token}` } });
    await h.request(`/api/v1/session/${s.session_id}`, { method: 'HEAD', headers: { authorization: `Bearer ${h.token}` } });
    await h.request('/api/v10/session/x');
    await h.request('/apiv1');
    const entries = await logs();
    expect(entries.map((e) => [e.method, e.path, e.status])).toEqual([
      ['HEAD', `/api/v1/session/${s.session_id}`, 200],
      ['GET', `/api/v1/session/${s.session_id}`, 200],
      ['GET', `/api/v1/session/${s.session_id}?fields=all`, 200],
      ['GET', '/api/v1', 404],
    ]);
    expect(entries[1].site_id).toBe(h.site.site_id);
  });

  it('masks secret keys, tokens and signing secrets; attributes /event to the secret key’s site', async () => {
    const r = await h.api('POST', '/event', { token: null, body: { secret_key: h.site.secret_key, email: 'a@example.com', name: `at_test_${'A'.repeat(32)}` } });
    expect(r.status).toBe(200);
    const [e] = await logs();
    expect(e.site_id).toBe(h.site.site_id);
    expect(e.request_body).not.toContain(h.site.secret_key);
    expect(e.request_body).toContain(`"secret_key":"sk_test_…${h.site.secret_key.slice(-4)}"`);
    expect(e.request_body).toContain('at_test_…AAAA');
    expect(e.request_body).toContain('a@example.com');
    const all = JSON.stringify(await logs());
    expect(all).not.toContain(h.token);
  });

  it('masks a secret key whose field name is written with a JSON escape, and attributes the request by it', async () => {
    const post = (body: string) =>
      h.request('/api/v1/event', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    // The server reads `secret\u005fkey` as secret_key: a 400 for the bad email, but the site is known.
    expect((await post(`{"secret\\u005fkey":"${h.site.secret_key}","email":5}`)).status).toBe(400);
    // A wrong key of no particular shape: 401, and still a secret.
    expect((await post('{"\\u0073ecret_key":"my-wrong-key-1234567"}')).status).toBe(401);
    const [wrong, bad] = await logs();
    expect(bad.site_id).toBe(h.site.site_id);
    expect(bad.request_body).toBe(`{"secret\\u005fkey":"sk_test_…${h.site.secret_key.slice(-4)}","email":5}`);
    expect(wrong.site_id).toBeNull();
    expect(wrong.request_body).toBe('{"\\u0073ecret_key":"…4567"}');
  });

  it('limit and before page through the log', async () => {
    for (let i = 0; i < 5; i++) await h.request(`/api/v1/nowhere/${i}`);
    const two = await logs('?limit=2');
    expect(two.map((e) => e.path)).toEqual(['/api/v1/nowhere/4', '/api/v1/nowhere/3']);
    const next = await logs(`?limit=2&before=${two[1].request_id}`);
    expect(next.map((e) => e.path)).toEqual(['/api/v1/nowhere/2', '/api/v1/nowhere/1']);
    expect((await h.admin('GET', '/logs?limit=0')).status).toBe(400);
  });

  it('reset: requests made before a reset are gone from the log after it, whoever resets (the API, emu.reset())', async () => {
    await h.request('/api/v1/nowhere/before-api-reset');
    expect((await h.admin('POST', '/state/reset')).status).toBe(200);
    expect(await logs('')).toEqual([]);
    // The state service itself, as emu.reset() calls it: no route settles the log first.
    await h.request('/api/v1/nowhere/before-library-reset');
    await h.emulator.deps.state!.reset();
    expect(await logs('')).toEqual([]);
    await h.request('/api/v1/nowhere/after');
    expect((await logs('')).map((e) => e.path)).toEqual(['/api/v1/nowhere/after']);
  });

  it('publishes request.logged on the bus', async () => {
    const seen: Array<Record<string, unknown>> = [];
    h.emulator.deps.bus.subscribe((e) => e.type === 'request.logged' && seen.push(e.data));
    await h.request('/api/v1/nowhere');
    await expect.poll(() => seen.length).toBe(1);
    expect(seen[0]).toMatchObject({ path: '/api/v1/nowhere', status: 404 });
    expect(seen[0]).not.toHaveProperty('seq');
  });
});

describe('request log internals', () => {
  it('maskText masks without parsing, and leaves other text alone', () => {
    expect(maskText('{"secret_key": "short"}')).toBe('{"secret_key": "…"}');
    expect(maskText('{"secret_key":"sk_test_abcdefghijklmnopqrstuv"}')).toBe('{"secret_key":"sk_test_…stuv"}');
    expect(maskText('x whsec_QUJDREVGR0hJSktMTU5PUFFS y')).toBe('x whsec_…UFFS y');
    expect(maskText('Authorization: Bearer abcdefghijklmnopqrst')).toBe('Authorization: Bearer …qrst');
    expect(maskText('Bearer abc')).toBe('Bearer …');
    expect(maskText('{"email":"a@example.com"}')).toBe('{"email":"a@example.com"}');
  });

  it('keeps only the newest rows (pruned in batches, not per insert)', () => {
    const store = createStore({ path: ':memory:' });
    const log = createRequestLogger({ store, bus: createEventBus(), clock: createClock(), keep: 50 });
    const seen = (i: number) => ({ method: 'GET', path: `/api/v1/x/${i}`, status: 200, durationMs: 1, atUs: Date.now() * 1000, bearer: null, requestBody: null, responseBody: null });
    for (let i = 0; i < 2100; i++) log.record(seen(i));
    log.flush();
    const n = (store.db.prepare('SELECT count(*) AS n FROM request_log').get() as { n: number }).n;
    expect(n).toBeLessThanOrEqual(50 + 1000);
    expect(log.list({ limit: 1 })[0].path).toBe('/api/v1/x/2099');
    store.requestLog.prune(50);
    expect(log.list({ limit: 10_000 })).toHaveLength(50);
    store.close();
  });

  it('over real sockets the response body is captured too', async () => {
    const emu = await startEmulator();
    try {
      const s = await emu.client.admin<{ session_id: string }>('POST', `/sites/${emu.site.siteId}/sessions`, { body: {} });
      await emu.client.api('GET', `/session/${s.session_id}`);
      const [e] = await emu.client.admin<Entry[]>('GET', '/logs');
      expect(JSON.parse(e.response_body!).session_id).toBe(s.session_id);
    } finally {
      await emu.close();
    }
  });
});

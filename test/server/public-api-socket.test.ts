// The public API over a real socket (the node listener) answers exactly as app.request() does,
// byte for byte, and is logged the same.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { harness, type Harness } from '../helpers/emulator.js';
import { tempDir } from '../helpers/vtr-process.js';

describe('public API over a real socket', () => {
  let h: Harness;
  let origin: string;
  beforeAll(async () => {
    h = harness();
    const { port } = await h.emulator.listen(0, '127.0.0.1');
    origin = `http://127.0.0.1:${port}`;
  });
  afterAll(() => h.close());

  const get = (path: string, token: string | null = h.token) =>
    fetch(`${origin}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

  it('public API over a socket: the same body and content type as app.request', async () => {
    const s = await h.createSession({ ip: '198.51.100.4', url: 'https://shop.test/?gclid=abc' });
    const viaSocket = await get(`/api/v1/session/${s.session_id}`);
    const viaApp = await h.request(`/api/v1/session/${s.session_id}`, { headers: { authorization: `Bearer ${h.token}` } });
    expect(viaSocket.status).toBe(200);
    expect(viaSocket.headers.get('content-type')).toBe(viaApp.headers.get('content-type'));
    expect(await viaSocket.text()).toBe(await viaApp.text());
  });

  it('public API over a socket: the request is in the request log', async () => {
    const s = await h.createSession();
    await get(`/api/v1/session/${s.session_id}`);
    await expect
      .poll(async () => (await h.admin<any[]>('GET', '/logs?limit=50')).body.find((e) => e.path === `/api/v1/session/${s.session_id}`), { timeout: 10_000 })
      .toMatchObject({ method: 'GET', status: 200, response_body: expect.stringContaining(s.session_id) });
  });

  it('public API over a socket: GET errors are app.request\'s (401, 404, another site, revoked token)', async () => {
    const s = await h.createSession();
    const same = async (path: string, token: string | null) => {
      const viaSocket = await get(path, token);
      const viaApp = await h.request(path, { headers: token ? { authorization: `Bearer ${token}` } : {} });
      expect(viaSocket.status).toBe(viaApp.status);
      expect(await viaSocket.text()).toBe(await viaApp.text());
      return viaSocket.status;
    };
    expect(await same(`/api/v1/session/${s.session_id}`, null)).toBe(401);
    expect(await same(`/api/v1/session/${s.session_id}`, 'at_test_bogus')).toBe(401);
    expect(await same('/api/v1/session/ses_nope', h.token)).toBe(404);
    const other = (await h.admin('POST', '/sites', { name: 'Other' })).body;
    const otherToken = (await h.admin('POST', `/sites/${other.site_id}/tokens`)).body.token;
    expect(await same(`/api/v1/session/${s.session_id}`, otherToken)).toBe(404);
    await h.admin('DELETE', `/tokens/${otherToken}`);
    expect(await same(`/api/v1/session/${s.session_id}`, otherToken)).toBe(401);
  });

  // Each case goes once over the socket and once through app.request; status, content type and body must agree (a check's id and time aside).
  const post = async (path: string, body: string | null, headers: Record<string, string>) => {
    const init = { method: 'POST', headers, body: body ?? undefined };
    const viaSocket = await fetch(`${origin}${path}`, init);
    const viaApp = await h.request(path, init);
    const read = async (r: Response) => {
      const json = JSON.parse(await r.text());
      if (json && typeof json === 'object') (delete json.id, delete json.created_at);
      return { status: r.status, type: r.headers.get('content-type'), json };
    };
    const a = await read(viaSocket);
    expect(a).toEqual(await read(viaApp));
    return a;
  };

  it('public API over a socket: POST /api/v1/session/{id}/event answers as app.request, for success and every error', async () => {
    const s = await h.createSession();
    const path = `/api/v1/session/${s.session_id}/event`;
    const auth = { authorization: `Bearer ${h.token}`, 'content-type': 'application/json' };
    expect((await post(path, '{"name":"signup","value":2}', auth)).json).toEqual({ success: true });
    expect((await post(path, '{"name":"x"}', { 'content-type': 'application/json' })).status).toBe(401);
    // The token is checked before the body is read: a bad token with bad JSON is a 401.
    expect((await post(path, '{nope', { ...auth, authorization: 'Bearer at_test_bogus' })).status).toBe(401);
    expect((await post(path, '{nope', auth)).json.code).toBe('invalid_json');
    expect((await post(path, '[1]', auth)).json.code).toBe('invalid_request');
    expect((await post(path, '{"name":""}', auth)).json).toMatchObject({ code: 'invalid_request', field: 'name' });
    expect((await post(path, null, auth)).json).toMatchObject({ code: 'invalid_request', field: 'name' });
    expect((await post(path, '{"name":"x"}', { ...auth, 'content-type': 'text/plain' })).status).toBe(415);
    expect((await post('/api/v1/session/ses_nope/event', '{"name":"x"}', auth)).status).toBe(404);
    const after = (await h.api<any>('GET', `/session/${s.session_id}`)).body;
    expect(after.custom_events).toEqual(['signup', 'signup']);
    expect(after.value).toBe(4);
  });

  it('public API over a socket: POST /api/v1/event answers as app.request, for success and every error', async () => {
    const json = { 'content-type': 'application/json' };
    const full = { secret_key: h.site.secret_key, ip: '192.0.2.10', email: 'jane@example.com', phone: '+1 212 664 7665', address: { country: 'US', postal_code: '10112' } };
    const ok = await post('/api/v1/event', JSON.stringify(full), json);
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ risk_level: expect.any(String), phone: { phone: '+12126647665' } });
    expect((await post('/api/v1/event', '{}', json)).status).toBe(401);
    expect((await post('/api/v1/event', '{"secret_key":"sk_test_nope"}', json)).status).toBe(401);
    expect((await post('/api/v1/event', '{"secret_key":5}', json)).json).toMatchObject({ field: 'secret_key' });
    expect((await post('/api/v1/event', JSON.stringify({ ...full, phone: 5 }), json)).json).toMatchObject({ code: 'invalid_request', field: 'phone' });
    expect((await post('/api/v1/event', '\xff', json)).json.code).toBe('invalid_json');
    expect((await post('/api/v1/event', 'null', json)).json.code).toBe('invalid_request');
  });

  it('public API over a socket: POST bodies are in the request log, secrets masked', async () => {
    const body = JSON.stringify({ secret_key: h.site.secret_key, ip: '192.0.2.77' });
    await fetch(`${origin}/api/v1/event`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const logged = (await h.admin<any[]>('GET', '/logs?limit=50')).body.find((e) => e.request_body?.includes('192.0.2.77'));
    expect(logged).toMatchObject({ method: 'POST', status: 200, site_id: h.site.site_id });
    expect(logged.request_body).not.toContain(h.site.secret_key);
    expect(logged.response_body).toContain('192.0.2.77');
  });

  it('public API over a socket: the logged answer is the text that was sent, non-ASCII included', async () => {
    const body = JSON.stringify({ secret_key: h.site.secret_key, email: 'zoë.ünïcode@exämple.test', name: 'Zoë «Ω» 测试' });
    const res = await fetch(`${origin}/api/v1/event`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const sent = await res.text();
    expect(sent).toMatch(/[^\x00-\x7f]/); // the answer echoes the email
    expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(sent));
    const logged = (await h.admin<any[]>('GET', '/logs?limit=50')).body.find((e) => e.request_body?.includes('测试'));
    expect(logged.response_body).toBe(sent);
  });

  it('public API over a socket: a chunked body, one over the limit, HEAD and wrong methods', async () => {
    const s = await h.createSession();
    const path = `/api/v1/session/${s.session_id}/event`;
    const chunked = await fetch(`${origin}${path}`, {
      method: 'POST', headers: { authorization: `Bearer ${h.token}`, 'content-type': 'application/json' },
      body: new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode('{"name":"chunked"}')); c.close(); } }),
      duplex: 'half',
    } as RequestInit);
    expect(await chunked.json()).toEqual({ success: true });
    const big = await fetch(`${origin}/api/v1/event`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"x":"${'a'.repeat(1024 * 1024 + 10)}"}` });
    expect(big.status).toBe(413);
    expect((await fetch(`${origin}${path}`, { method: 'PUT' })).status).toBe(405);
    expect((await fetch(`${origin}/api/v1/session/${s.session_id}`, { method: 'HEAD', headers: { authorization: `Bearer ${h.token}` } })).status).toBe(200);
  });

  it('public API over a socket: HEAD carries the GET\'s Content-Length and no body (session, health, a console page)', async () => {
    const s = await h.createSession();
    for (const [path, headers] of [[`/api/v1/session/${s.session_id}`, { authorization: `Bearer ${h.token}` }], ['/_vtr/health', {}], ['/_vtr/console/sessions', { accept: 'text/html' }]] as const) {
      const got = await fetch(`${origin}${path}`, { headers });
      const length = (await got.arrayBuffer()).byteLength;
      expect(got.headers.get('content-length'), path).toBe(String(length));
      const head = await fetch(`${origin}${path}`, { method: 'HEAD', headers });
      expect(head.status, path).toBe(got.status);
      expect(head.headers.get('content-length'), path).toBe(String(length));
      expect(await head.text(), path).toBe('');
    }
  });

  it('public API over a socket: a query string or an encoded id still answers', async () => {
    const s = await h.createSession();
    expect((await get(`/api/v1/session/${s.session_id}?x=1`)).status).toBe(200);
    expect((await get(`/api/v1/session/${encodeURIComponent(s.session_id)}%2F`)).status).toBe(404);
  });
});

describe('public API writes over a real socket', () => {
  let h: Harness;
  let origin: string;
  let file: string;
  beforeAll(async () => {
    file = join(tempDir(), 'vtr.db');
    h = harness({ dbPath: file });
    const { port } = await h.emulator.listen(0, '127.0.0.1');
    origin = `http://127.0.0.1:${port}`;
  });
  afterAll(() => h.close());

  it('public API over a socket: a 200 means committed: another connection to the file sees the write at once', async () => {
    const s = await h.createSession();
    const headers = { authorization: `Bearer ${h.token}`, 'content-type': 'application/json' };
    const requests = Array.from({ length: 20 }, (_, i) => fetch(`${origin}/api/v1/session/${s.session_id}/event`, { method: 'POST', headers, body: JSON.stringify({ name: `e${i}` }) }));
    requests.push(fetch(`${origin}/api/v1/event`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ secret_key: h.site.secret_key, ip: '192.0.2.99' }) }));
    const answers = await Promise.all(requests);
    expect(answers.map((r) => r.status)).toEqual(answers.map(() => 200));
    const check = (await answers[20].json()) as { id: string };
    const other = new Database(file, { readonly: true });
    try {
      const events = JSON.parse((other.prepare('SELECT custom_events FROM sessions WHERE session_id = ?').get(s.session_id) as { custom_events: string }).custom_events);
      expect([...events].sort()).toEqual(Array.from({ length: 20 }, (_, i) => `e${i}`).sort());
      expect(other.prepare('SELECT check_id FROM checks WHERE check_id = ?').get(check.id)).toBeTruthy();
    } finally {
      other.close();
    }
  });

  it('public API over a socket: a refused write leaves nothing behind', async () => {
    const s = await h.createSession();
    const headers = { authorization: `Bearer ${h.token}`, 'content-type': 'application/json' };
    const bad = await fetch(`${origin}/api/v1/session/${s.session_id}/event`, { method: 'POST', headers, body: JSON.stringify({ name: 'x', value: 'nope' }) });
    expect(bad.status).toBe(400);
    const after = (await h.api<any>('GET', `/session/${s.session_id}`)).body;
    expect(after.custom_events).toEqual([]);
    expect(after.updated_at).toBe(s.updated_at);
  });
});

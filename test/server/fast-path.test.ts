// The direct answer for GET /api/v1/session/{id} (src/server/fast-path.ts) must be the Hono
// route's answer, byte for byte, logged the same; every other case must reach the Hono app.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/emulator.js';

describe('fast path: GET /api/v1/session/{id} over a real socket', () => {
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

  it('fast path: the same body and content type as the app route', async () => {
    const s = await h.createSession({ ip: '198.51.100.4', url: 'https://shop.test/?gclid=abc' });
    const viaSocket = await get(`/api/v1/session/${s.session_id}`);
    const viaApp = await h.request(`/api/v1/session/${s.session_id}`, { headers: { authorization: `Bearer ${h.token}` } });
    expect(viaSocket.status).toBe(200);
    expect(viaSocket.headers.get('content-type')).toBe(viaApp.headers.get('content-type'));
    expect(await viaSocket.text()).toBe(await viaApp.text());
  });

  it('fast path: the request is in the request log', async () => {
    const s = await h.createSession();
    await get(`/api/v1/session/${s.session_id}`);
    await expect
      .poll(async () => (await h.admin<any[]>('GET', '/logs?limit=50')).body.find((e) => e.path === `/api/v1/session/${s.session_id}`), { timeout: 10_000 })
      .toMatchObject({ method: 'GET', status: 200, response_body: expect.stringContaining(s.session_id) });
  });

  it('fast path: errors still come from the app (401, 404, another site, revoked token)', async () => {
    const s = await h.createSession();
    expect((await get(`/api/v1/session/${s.session_id}`, null)).status).toBe(401);
    expect((await get(`/api/v1/session/${s.session_id}`, 'at_test_bogus')).status).toBe(401);
    expect(await (await get('/api/v1/session/ses_nope')).json()).toMatchObject({ code: 'not_found' });
    const other = (await h.admin('POST', '/sites', { name: 'Other' })).body;
    const otherToken = (await h.admin('POST', `/sites/${other.site_id}/tokens`)).body.token;
    expect((await get(`/api/v1/session/${s.session_id}`, otherToken)).status).toBe(404);
    await h.admin('DELETE', `/tokens/${otherToken}`);
    expect((await get(`/api/v1/session/${s.session_id}`, otherToken)).status).toBe(401);
  });

  it('fast path: a query string or an encoded id takes the app route and still answers', async () => {
    const s = await h.createSession();
    expect((await get(`/api/v1/session/${s.session_id}?x=1`)).status).toBe(200);
    expect((await get(`/api/v1/session/${encodeURIComponent(s.session_id)}%2F`)).status).toBe(404);
  });
});

// HEAD answers with the headers the GET would send, Content-Length included (RFC 9110 §9.3.2), and
// no body; the request log still says HEAD.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/emulator.js';

describe('HEAD', () => {
  let h: Harness;
  beforeAll(() => {
    h = harness();
  });
  afterAll(() => h.close());

  const both = async (path: string, headers: Record<string, string> = {}) => {
    const get = await h.request(path, { headers, redirect: 'manual' });
    const getBytes = new Uint8Array(await get.arrayBuffer());
    const head = await h.request(path, { method: 'HEAD', headers, redirect: 'manual' });
    return { get, getBytes, head, headBody: await head.text() };
  };

  it('HEAD: the session, health, console pages and errors carry the GET\'s status, headers and Content-Length, with no body', async () => {
    const s = await h.createSession();
    const auth = { authorization: `Bearer ${h.token}` };
    for (const [path, headers] of [
      [`/api/v1/session/${s.session_id}`, auth],
      ['/api/v1/session/ses_nope', auth],
      [`/api/v1/session/${s.session_id}`, {}],
      ['/api/v1/event', {}],
      ['/_vtr/health', {}],
      ['/_vtr/console/sessions', { accept: 'text/html' }],
      [`/_vtr/console/sessions/${s.session_id}`, { accept: 'text/html' }],
      ['/_vtr/api/sites', {}],
    ] as const) {
      const { get, getBytes, head, headBody } = await both(path, headers);
      expect(head.status, path).toBe(get.status);
      expect(getBytes.byteLength, path).toBeGreaterThan(0);
      expect(head.headers.get('content-length'), path).toBe(String(getBytes.byteLength));
      expect(head.headers.get('content-type'), path).toBe(get.headers.get('content-type'));
      expect(headBody, path).toBe('');
    }
  });

  it('HEAD: an answer without a body (a redirect) gets no Content-Length, as its GET', async () => {
    const { get, head } = await both('/_vtr/console', { accept: 'text/html' });
    expect(head.status).toBe(302);
    expect(head.headers.get('location')).toBe(get.headers.get('location'));
    expect(head.headers.get('content-length')).toBeNull();
  });

  it('HEAD: the event stream answers its headers at once, without a length', async () => {
    const head = await h.request('/_vtr/api/stream', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(head.headers.get('content-length')).toBeNull();
    expect(await head.text()).toBe('');
  });

  it('HEAD: the request log records the method as HEAD', async () => {
    const s = await h.createSession();
    await h.request(`/api/v1/session/${s.session_id}`, { method: 'HEAD', headers: { authorization: `Bearer ${h.token}` } });
    await expect.poll(async () => (await h.admin<any[]>('GET', '/logs?limit=5')).body.find((e) => e.path === `/api/v1/session/${s.session_id}`))
      .toMatchObject({ method: 'HEAD', status: 200 });
  });
});

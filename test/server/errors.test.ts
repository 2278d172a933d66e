import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/emulator.js';

let h: Harness;
let sessionId: string;
beforeEach(async () => {
  h = harness();
  sessionId = (await h.createSession()).session_id;
});
afterEach(async () => {
  await h.close();
});

const auth = () => ({ authorization: `Bearer ${h.token}` });

async function post(path: string, body: RequestInit['body'], headers: Record<string, string> = {}) {
  const res = await h.request(path, { method: 'POST', headers: { 'content-type': 'application/json', ...auth(), ...headers }, body });
  return { status: res.status, headers: res.headers, body: (await res.json()) as { code: string; message: string } };
}

/** A body streamed in chunks, so no content-length is known up front. */
function streamed(total: number, chunk = 64 * 1024): ReadableStream<Uint8Array<ArrayBuffer>> {
  let sent = 0;
  return new ReadableStream<Uint8Array<ArrayBuffer>>({
    pull(ctrl) {
      if (sent >= total) return ctrl.close();
      const n = Math.min(chunk, total - sent);
      sent += n;
      ctrl.enqueue(new Uint8Array(n).fill(0x20));
    },
  });
}

describe('error model', () => {
  it('errors: truncated JSON is a 400 invalid_json', async () => {
    const r = await post(`/api/v1/session/${sessionId}/event`, '{"name": "sig');
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('invalid_json');
    expect(r.body.message).toEqual(expect.any(String));
  });

  it('errors: a body that is not UTF-8 is a 400 invalid_json', async () => {
    const bytes = new Uint8Array([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]); // {"name":"\xff\xfe"}
    const r = await post(`/api/v1/session/${sessionId}/event`, bytes);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('invalid_json');
    expect(r.body.message).toMatch(/UTF-8/);
  });

  it('errors: a JSON body that is not an object is a 400 invalid_request', async () => {
    for (const body of ['[]', '"conversion"', '1', 'null', 'true']) {
      const r = await post(`/api/v1/session/${sessionId}/event`, body);
      expect(r.status, body).toBe(400);
      expect(r.body.code, body).toBe('invalid_request');
      expect(r.body.message).toMatch(/object/);
    }
  });

  it('errors: a JSON body that is not an object says what it is, e.g. a body that is an array or a bare string', async () => {
    const cases: Array<[string, string]> = [
      ['[{"name": "x"}]', 'the body must be a JSON object, not an array: send the object itself, without [ ]'],
      ['"conversion"', 'the body must be a JSON object, not a string'],
      ['1', 'the body must be a JSON object, not a number'],
      ['null', 'the body must be a JSON object, not null'],
      ['true', 'the body must be a JSON object, not a boolean'],
    ];
    for (const [body, message] of cases) {
      const r = await post(`/api/v1/session/${sessionId}/event`, body);
      expect(r.status, body).toBe(400);
      expect(r.body.message, body).toBe(message);
    }
    const arr = await h.request('/api/v1/event', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '[]' });
    expect(((await arr.json()) as { message: string }).message).toBe('the body must be a JSON object, not an array');
  });

  it('errors: an unknown path is a 404 not_found in the error shape', async () => {
    for (const path of ['/api/v1/nope', '/api/v1/session', '/api/v1/session/a/b/c', '/api/v2/session/x', '/_vtr/api/nope']) {
      const res = await h.request(path, { headers: auth() });
      expect(res.status, path).toBe(404);
      expect(await res.json()).toEqual({ code: 'not_found', message: expect.any(String) });
    }
  });

  it('errors: a wrong method is a 405 with an Allow header', async () => {
    const res = await h.request(`/api/v1/session/${sessionId}`, { method: 'DELETE', headers: auth() });
    expect(res.status).toBe(405);
    expect(await res.json()).toMatchObject({ code: 'method_not_allowed' });
    expect(res.headers.get('allow')?.split(/,\s*/)).toEqual(expect.arrayContaining(['GET', 'HEAD']));
    expect(res.headers.get('allow')).not.toMatch(/DELETE|POST/);

    const ev = await h.request(`/api/v1/session/${sessionId}/event`, { method: 'GET', headers: auth() });
    expect(ev.status).toBe(405);
    expect(ev.headers.get('allow')).toMatch(/POST/);
    expect(ev.headers.get('allow')).not.toMatch(/GET/);

    const health = await h.request('/_vtr/health', { method: 'POST' });
    expect(health.status).toBe(405);
    expect(health.headers.get('allow')).toMatch(/GET/);
  });

  it('errors: a 405 message names the methods its Allow header lists, OPTIONS included', async () => {
    for (const [method, path] of [['DELETE', '/api/v1/event'], ['DELETE', `/api/v1/session/${sessionId}`], ['PUT', '/_vtr/health'], ['PATCH', '/_vtr/api/sites']]) {
      const res = await h.request(path, { method, headers: auth() });
      expect(res.status, `${method} ${path}`).toBe(405);
      const allow = res.headers.get('allow')!;
      expect(allow).toMatch(/\bOPTIONS\b/);
      const { message } = (await res.json()) as { message: string };
      expect(message, `${method} ${path}`).toBe(`${method} is not allowed on ${path}; allowed: ${allow}`);
    }
  });

  it('errors: a body over 1 MiB with a content-length is a 413', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10) });
    const r = await post(`/api/v1/session/${sessionId}/event`, big, { 'content-length': String(Buffer.byteLength(big)) });
    expect(r.status).toBe(413);
    expect(r.body.code).toBe('payload_too_large');
    // the declared length alone is enough: the body is not read
    const declared = await post(`/api/v1/session/${sessionId}/event`, '{"name":"a"}', { 'content-length': String(5 * 1024 * 1024) });
    expect(declared.status).toBe(413);
    expect((await h.api('GET', `/session/${sessionId}`)).body.custom_events).toEqual([]);
  });

  it('errors: a streamed body over 1 MiB without a content-length is a 413', async () => {
    const res = await h.request(`/api/v1/session/${sessionId}/event`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth() },
      body: streamed(2 * 1024 * 1024),
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 'payload_too_large' });
  });

  it('errors: a body of exactly 1 MiB is read', async () => {
    const prefix = '{"name":"ok","pad":"';
    const body = `${prefix}${'x'.repeat(1024 * 1024 - prefix.length - 2)}"}`;
    expect(Buffer.byteLength(body)).toBe(1024 * 1024);
    const r = await post(`/api/v1/session/${sessionId}/event`, body);
    // accepted for size; `pad` is an unknown field, which the endpoint ignores
    expect(r.status).toBe(200);
  });

  it('errors: a non-JSON content type is a 415', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx']) {
      const r = await post(`/api/v1/session/${sessionId}/event`, '{"name":"a"}', { 'content-type': type });
      expect(r.status, type).toBe(415);
      expect(r.body.code).toBe('unsupported_media_type');
    }
    // JSON with parameters, or a +json type, is fine
    for (const type of ['application/json; charset=utf-8', 'application/vnd.api+json']) {
      expect((await post(`/api/v1/session/${sessionId}/event`, '{"name":"a"}', { 'content-type': type })).status, type).toBe(200);
    }
  });

  it('errors: a JSON body declaring a charset other than UTF-8 is a 415 naming the charset', async () => {
    for (const charset of ['utf-16', 'UTF-16LE', '"iso-8859-1"', 'windows-1252']) {
      const r = await post(`/api/v1/session/${sessionId}/event`, '{"name":"a"}', { 'content-type': `application/json; charset=${charset}` });
      expect(r.status, charset).toBe(415);
      expect(r.body.code).toBe('unsupported_media_type');
      expect(r.body.message).toContain(charset.replaceAll('"', ''));
      expect(r.body.message).toMatch(/UTF-8/);
    }
    const admin = await h.request('/_vtr/api/sites', { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-16' }, body: '{"name":"a"}' });
    expect(admin.status).toBe(415);
    // UTF-8 in any spelling, and ASCII (a subset of it), are read.
    for (const charset of ['utf-8', 'UTF8', '"utf-8"', 'us-ascii']) {
      expect((await post(`/api/v1/session/${sessionId}/event`, '{"name":"a"}', { 'content-type': `application/json;charset=${charset}` })).status, charset).toBe(200);
    }
  });

  it('errors: a missing token on POST is a 401 before the body is judged', async () => {
    const res = await h.request(`/api/v1/session/${sessionId}/event`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'unauthorized' });
  });

  it('errors: an id from the path is shown escaped and cut short in a 404, never with its control characters', async () => {
    const long = 'x'.repeat(300);
    const cases: Array<[string, string, string]> = [
      ['DELETE', '/sites/%00', 'site "\\u0000" not found'],
      ['GET', '/sites/a%0Ab', 'site "a\\nb" not found'],
      ['GET', '/sites/default/rules/rule%1B%5B2J', 'rule "rule\\u001b[2J" not found'],
      ['GET', '/no/such%1B%5B2J', 'no route for GET "/_vtr/api/no/such\\u001b[2J"'],
      ['GET', '/webhooks/wh%C2%85x', 'webhook "wh\\u0085x" not found'],
      ['GET', `/sites/${long}`, `site "${'x'.repeat(100)}…" not found`],
    ];
    for (const [method, path, message] of cases) {
      const r = await h.admin(method, path);
      expect(r.status, path).toBe(404);
      expect(r.body, path).toEqual({ code: 'not_found', message });
    }
    // A plain id reads as before.
    expect((await h.admin('GET', '/sites/site_nope')).body.message).toBe('site site_nope not found');
  });

  it('errors: malformed requests never get a 5xx', async () => {
    const paths = [
      `/api/v1/session/${sessionId}`, `/api/v1/session/${sessionId}/event`, '/api/v1/session/%E0%A4%A', '/api/v1/session/%00',
      `/api/v1/session/${'a'.repeat(5000)}`, '/_vtr/api/sites', `/_vtr/api/sites/${h.site.site_id}`, '/_vtr/api/sessions',
      `/_vtr/api/sites/${h.site.site_id}/sessions`, '/_vtr/api/clock/advance', '/_vtr/api/clock/set', '/_vtr/api/tokens/x',
      '/_vtr/api/sessions?limit=-1', '/_vtr/api/sessions?where=%28', '/_vtr/api/sessions?before=nope', '/_vtr/health',
    ];
    const bodies: Array<[string | Uint8Array<ArrayBuffer> | null, string | undefined]> = [
      [null, undefined], ['', 'application/json'], ['{', 'application/json'], ['[1,2]', 'application/json'],
      ['{"name": {"a": 1}}', 'application/json'], ['{"plan": 7, "country": []}', 'application/json'],
      ['{"duration": "forever", "timestamp": 5}', 'application/json'], [new Uint8Array([0xc3, 0x28]), 'application/json'],
      ['name=x', 'application/x-www-form-urlencoded'], ['{"__proto__": {"x": 1}}', 'application/json'],
      ['{"ip": "999.1.1.1", "user_agent": 5}', 'application/json'], ['{"page_views": 1e309}', 'application/json'],
    ];
    for (const path of paths) {
      for (const method of ['GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS']) {
        for (const [body, type] of method === 'GET' || method === 'OPTIONS' ? [[null, undefined] as const] : bodies) {
          const headers: Record<string, string> = { ...auth() };
          if (type) headers['content-type'] = type;
          const res = await h.request(path, { method, headers, body: body ?? undefined });
          expect(res.status, `${method} ${path} ${String(body)}`).toBeLessThan(500);
          if (res.status >= 400) {
            const e = (await res.json()) as { code: unknown; message: unknown };
            expect(typeof e.code).toBe('string');
            expect(typeof e.message).toBe('string');
          } else await res.arrayBuffer();
        }
      }
    }
  });
});

describe('numbers too large to read', () => {
  it('errors: a JSON number beyond a double (1e400) is a 400 saying the number is too large, naming the field, on every route', async () => {
    const site = h.site.site_id;
    const cases: Array<[string, string, string, Record<string, string>]> = [
      [`/api/v1/session/${sessionId}/event`, '{"name": "signup", "value": 1e400}', 'value', auth()],
      [`/api/v1/session/${sessionId}/event`, '{"name": "signup", "value": -1e400}', 'value', auth()],
      ['/api/v1/event', `{"secret_key": "${h.site.secret_key}", "external_id": 1e400}`, 'external_id', {}],
      [`/_vtr/api/sites/${site}/sessions/simulate`, '{"count": 1e400}', 'count', {}],
      [`/_vtr/api/sites/${site}/rules`, '{"filter": "page_views > 1", "action": "block", "threshold": 1e400}', 'threshold', {}],
    ];
    for (const [path, body, field, headers] of cases) {
      const res = await h.request(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
      expect({ status: res.status, body: await res.json() }, `${path} ${body}`)
        .toEqual({ status: 400, body: { code: 'invalid_request', message: `${field}: the number is too large`, field } });
    }
  });
});

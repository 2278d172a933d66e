import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/emulator.js';

let h: Harness;
beforeEach(() => {
  h = harness();
});
afterEach(async () => {
  await h.close();
});

async function message(method: string, path: string): Promise<[number, string]> {
  const res = await h.request(path, { method, headers: { authorization: `Bearer ${h.token}` } });
  return [res.status, ((await res.json()) as { message: string }).message];
}

describe('public API paths a client got slightly wrong', () => {
  it('not found: a public route without /api/v1 (a base URL missing it) names the route it meant', async () => {
    expect(await message('POST', '/event')).toEqual([404, 'no route for POST /event; the public API is at POST /api/v1/event (its base URL ends in /api/v1)']);
    expect(await message('GET', '/session/ses_x')).toEqual([404, 'no route for GET /session/ses_x; the public API is at GET /api/v1/session/ses_x (its base URL ends in /api/v1)']);
    expect(await message('PUT', '/session/ses_x/conversion/')).toEqual([404, 'no route for PUT /session/ses_x/conversion/; the public API is at PUT /api/v1/session/ses_x/conversion (its base URL ends in /api/v1)']);
  });

  it('not found: /api/v1 twice, another version or a plural segment names the route it meant', async () => {
    expect((await message('POST', '/api/v1/api/v1/event'))[1]).toBe('no route for POST /api/v1/api/v1/event; did you mean POST /api/v1/event?');
    expect((await message('POST', '/api/v2/event'))[1]).toBe('no route for POST /api/v2/event; did you mean POST /api/v1/event?');
    expect((await message('GET', '/api/v1/sessions/ses_x'))[1]).toBe('no route for GET /api/v1/sessions/ses_x; did you mean GET /api/v1/session/ses_x?');
    expect((await message('POST', '/api/v1/events'))[1]).toBe('no route for POST /api/v1/events; did you mean POST /api/v1/event?');
    expect((await message('POST', '/api/v1/session/ses_x/events'))[1]).toBe('no route for POST /api/v1/session/ses_x/events; did you mean POST /api/v1/session/ses_x/event?');
  });

  it('not found: /api/v1/session with no id says the id is missing', async () => {
    for (const path of ['/api/v1/session', '/api/v1/session/', '/api/v1/session//event']) {
      const [status, text] = await message(path.endsWith('event') ? 'POST' : 'GET', path);
      expect(status, path).toBe(404);
      expect(text, path).toMatch(/; the session id is missing: \/api\/v1\/session\/\{id\}/);
    }
  });

  it('not found: other unknown paths keep the plain message', async () => {
    expect(await message('GET', '/api/v1/nope')).toEqual([404, 'no route for GET /api/v1/nope']);
    expect(await message('GET', '/api/v1')).toEqual([404, 'no route for GET /api/v1']);
    expect(await message('GET', '/nope/event')).toEqual([404, 'no route for GET /nope/event']);
  });
});

describe('public API paths sent with another method', () => {
  it('not found: a path slightly off names the method its route takes', async () => {
    expect((await message('GET', '/event'))[1]).toBe('no route for GET /event; the public API is at POST /api/v1/event (its base URL ends in /api/v1)');
    expect((await message('DELETE', '/api/v2/session/ses_x'))[1]).toBe('no route for DELETE /api/v2/session/ses_x; did you mean GET /api/v1/session/ses_x?');
  });
});

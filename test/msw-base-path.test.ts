// `vtr/msw`: a base URL's path is matched as written, whatever characters it holds. msw reads a
// string path as a pattern (`:name` a parameter, `*` a wildcard, `+` and `( )` syntax), so a
// base path holding them matched other paths, none, or broke the lookup of every request.
import { setupServer } from 'msw/node';
import { http, HttpResponse } from 'msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandlers, type VtrHandlers } from '../src/msw.js';

const ORIGIN = 'https://risk.example.invalid';

describe('vtr/msw base URL paths', () => {
  let vtr: VtrHandlers;
  beforeAll(async () => {
    vtr = await createHandlers({ baseUrl: `${ORIGIN}/api/v1` });
  });
  afterAll(() => vtr?.close());

  /** A visitor check sent to `url` with handlers made for `baseUrl` (sharing one emulator), next to a handler of the app's own. */
  async function check(baseUrl: string, url: string): Promise<number | string> {
    const h = await createHandlers({ baseUrl, emulator: vtr.emulator });
    const server = setupServer(...h.handlers, http.get('https://app.example.invalid/health', () => HttpResponse.text('ok')));
    server.listen({ onUnhandledRequest: 'error' });
    try {
      const health = await fetch('https://app.example.invalid/health');
      if (health.status !== 200) return `the app's own handler answered ${health.status}`;
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ secret_key: vtr.emulator.site.secretKey, ip: '203.0.113.7' }),
      }).catch(() => 'unhandled');
      return typeof res === 'string' ? res : res.status;
    } finally {
      server.close();
    }
  }

  it('createHandlers: a base path with +, parentheses or an encoded space is answered, and leaves other handlers working', async () => {
    expect(await check(`${ORIGIN}/a+b/api/v1`, `${ORIGIN}/a+b/api/v1/event`)).toBe(200);
    expect(await check(`${ORIGIN}/risk (v1)/api/v1`, `${ORIGIN}/risk%20(v1)/api/v1/event`)).toBe(200);
    expect(await check(`${ORIGIN}/risk%20(v1)/api/v1`, `${ORIGIN}/risk (v1)/api/v1/event`)).toBe(200);
  });

  it('createHandlers: a base path with : or * matches that path alone, not as a parameter or a wildcard', async () => {
    expect(await check(`${ORIGIN}/:tenant/api/v1`, `${ORIGIN}/:tenant/api/v1/event`)).toBe(200);
    expect(await check(`${ORIGIN}/:tenant/api/v1`, `${ORIGIN}/acme/api/v1/event`)).toBe('unhandled');
    expect(await check(`${ORIGIN}/*/api/v1`, `${ORIGIN}/acme/api/v1/event`)).toBe('unhandled');
  });

  it('createHandlers: another host, or a path that only starts like the base path, is not answered', async () => {
    expect(await check(`${ORIGIN}/api/v1`, 'https://other.example.invalid/api/v1/event')).toBe('unhandled');
    expect(await check(`${ORIGIN}/risk`, `${ORIGIN}/risky/event`)).toBe('unhandled');
    expect(await check(`${ORIGIN}/risk`, `${ORIGIN}/risk/api/v1/event`)).toBe(200);
  });
});

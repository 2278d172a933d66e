// emu.fetch (and so the MSW handlers) answers as the emulator does over HTTP, headers included: a
// client that reads content-length gets it in process too.
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/index.js';
import { createHandlers } from '../../src/msw.js';

describe('in-process answers', () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startEmulator();
  });
  afterAll(async () => {
    await emu?.close();
  });

  it('fetch: every answer carries the content-length the same request gets over HTTP', async () => {
    const s = await emu.sessions.create({ ip: '192.0.2.1' });
    const auth = { authorization: `Bearer ${emu.site.accessToken}`, 'content-type': 'application/json' };
    const origin = new URL(emu.baseUrl).origin;
    const requests: Array<[string, string, string?]> = [
      ['GET', `/api/v1/session/${s.session_id}`],
      ['GET', '/api/v1/session/ses_nope'],
      ['POST', '/api/v1/event', JSON.stringify({ secret_key: emu.site.secretKey, email: 'a@example.com' })],
      ['GET', '/api/v1/nope'],
      ['GET', '/api/v1/openapi.json'],
      ['GET', '/_vtr/api/sites'],
      ['GET', '/_vtr/health'],
      ['GET', '/agent.js'],
    ];
    for (const [method, path, body] of requests) {
      const wire = await fetch(`${origin}${path}`, { method, headers: auth, body });
      const local = await emu.fetch(path, { method, headers: auth, body });
      const sent = Buffer.byteLength(await local.text());
      expect([path, local.headers.get('content-length')]).toEqual([path, wire.headers.get('content-length')]);
      expect([path, Number(local.headers.get('content-length'))]).toEqual([path, sent]);
    }
  });

  it('msw: a handler\'s answer carries its content-length', async () => {
    const base = 'https://risk.example.invalid/api/v1';
    const vtr = await createHandlers({ baseUrl: base });
    const server = setupServer(...vtr.handlers);
    server.listen({ onUnhandledRequest: 'error' });
    try {
      const res = await fetch(`${base}/event`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ secret_key: vtr.emulator.site.secretKey }),
      });
      expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(await res.text()));
    } finally {
      server.close();
      await vtr.close();
    }
  });
});

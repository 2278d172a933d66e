// `vtr/msw`: an app's own fetch calls to the hosted service, answered by MSW from an in-process
// emulator (no port, a host that does not exist).
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandlers, emulatorUrl, type VtrHandlers } from '../src/msw.js';

const BASE = 'https://risk.example.invalid/api/v1';

describe('vtr/msw', () => {
  let vtr: VtrHandlers;
  let server: ReturnType<typeof setupServer>;
  beforeAll(async () => {
    vtr = await createHandlers({ baseUrl: BASE });
    server = setupServer(...vtr.handlers);
    server.listen({ onUnhandledRequest: 'error' });
  });
  afterAll(async () => {
    server?.close();
    await vtr?.close();
  });

  it('createHandlers: a visitor check from the app\'s fetch is answered by the emulator', async () => {
    const res = await fetch(`${BASE}/event`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ secret_key: vtr.emulator.site.secretKey, ip: '203.0.113.7' }),
    });
    expect(res.status).toBe(200);
    const check = (await res.json()) as { id: string; risk_level: string };
    expect(check.risk_level).toBe('invalid');
    expect(check.id).toMatch(/^chk_/);
  });

  it('createHandlers: sessions made through the emulator are read with the access token; errors keep the contract\'s shape', async () => {
    const s = await vtr.emulator.sessions.create({ ip: '192.0.2.30' });
    const auth = { authorization: `Bearer ${vtr.emulator.site.accessToken}` };
    const res = await fetch(`${BASE}/session/${s.session_id}`, { headers: auth });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { session_id: string }).session_id).toBe(s.session_id);
    const missing = await fetch(`${BASE}/session/ses_missing`, { headers: auth });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 'not_found' });
    const unauthorized = await fetch(`${BASE}/session/${s.session_id}`);
    expect(unauthorized.status).toBe(401);
  });

  it('createHandlers: an emulator passed in answers, and is left running by close()', async () => {
    const other = await createHandlers({ baseUrl: 'https://other.example.invalid/v2', emulator: vtr.emulator });
    server.use(...other.handlers);
    const res = await fetch('https://other.example.invalid/v2/event', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ secret_key: vtr.emulator.site.secretKey, email: 'a@example.com' }),
    });
    expect(res.status).toBe(200);
    await other.close();
    expect((await vtr.emulator.check({ ip: '192.0.2.1' })).risk_level).toBe('normal');
  });

  it('createHandlers: the base URL itself is answered as the service would (404 not_found), not left unhandled', async () => {
    for (const url of [BASE, `${BASE}/`]) {
      const res = await fetch(url);
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ code: 'not_found' });
    }
  });

  it('createHandlers: the base URL asked for without its trailing slash is answered as that path, not one with a slash the app did not send', async () => {
    const res = await fetch(BASE);
    expect(await res.json()).toEqual({ code: 'not_found', message: 'no route for GET /api/v1' });
    const slash = await fetch(`${BASE}/`);
    expect(await slash.json()).toEqual({ code: 'not_found', message: 'no route for GET /api/v1/' });
    expect(emulatorUrl('https://x.test/proxy', 'https://x.test/proxy?a=b')).toBe('http://127.0.0.1/api/v1?a=b');
  });

  it('createHandlers: after close(), a request to the handlers is a 503 saying the emulator behind them is closed, in the contract\'s error shape, not a stack trace', async () => {
    const closed = await createHandlers({ baseUrl: 'https://closed.example.invalid/api/v1' });
    server.use(...closed.handlers);
    await closed.close();
    const res = await fetch('https://closed.example.invalid/api/v1/event', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(503);
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['code', 'message']);
    expect(body.code).toBe('shutting_down');
    expect(body.message).toMatch(/^vtr\/msw: the emulator behind these handlers is closed \(their close\(\) was called\)/);
    // An emulator passed in and closed by its owner: the same answer, naming its own close().
    const { startEmulator } = await import('../src/index.js');
    const owned = await startEmulator({ listen: false });
    const shared = await createHandlers({ baseUrl: 'https://shared.example.invalid/api/v1', emulator: owned });
    server.use(...shared.handlers);
    await owned.close();
    const gone = await fetch('https://shared.example.invalid/api/v1/session/ses_x');
    expect(gone.status).toBe(503);
    expect(await gone.json()).toMatchObject({ code: 'shutting_down', message: expect.stringMatching(/^vtr\/msw: the emulator behind these handlers is closed \(emu\.close\(\) was called\)/) });
  });

  it('createHandlers: an emulator passed in and closed by its owner: the 503 says to close the server before that emulator, not before the handlers\' close()', async () => {
    const own = await createHandlers({ baseUrl: 'https://own-closed.example.invalid/api/v1' });
    server.use(...own.handlers);
    await own.close();
    const res = await fetch('https://own-closed.example.invalid/api/v1/session/ses_x');
    expect(((await res.json()) as { message: string }).message).toBe(
      "vtr/msw: the emulator behind these handlers is closed (their close() was called); nothing was done: call server.close() before the handlers' close(), or make new handlers with createHandlers()",
    );
    const { startEmulator } = await import('../src/index.js');
    const owned = await startEmulator({ listen: false });
    const shared = await createHandlers({ baseUrl: 'https://owner-closed.example.invalid/api/v1', emulator: owned });
    server.use(...shared.handlers);
    await owned.close();
    const gone = await fetch('https://owner-closed.example.invalid/api/v1/session/ses_x');
    expect(gone.status).toBe(503);
    expect(((await gone.json()) as { message: string }).message).toBe(
      'vtr/msw: the emulator behind these handlers is closed (emu.close() was called); nothing was done: it was passed in to createHandlers(), so call server.close() before its close(), or make new handlers over a running emulator',
    );
  });

  it('emulatorUrl: maps the base URL\'s path onto /api/v1 and keeps the query', () => {
    expect(emulatorUrl('https://x.test/api/v1', 'https://x.test/api/v1/session/ses_1?a=b')).toBe('http://127.0.0.1/api/v1/session/ses_1?a=b');
    expect(emulatorUrl('https://x.test/', 'https://x.test/event')).toBe('http://127.0.0.1/api/v1/event');
  });

  it('emulatorUrl: under a base URL with /api/v1, a path repeating it stays repeated (a 404, as from the service)', () => {
    expect(emulatorUrl('https://x.test/api/v1', 'https://x.test/api/v1/api/v1/event')).toBe('http://127.0.0.1/api/v1/api/v1/event');
    expect(emulatorUrl('https://x.test/api/v1/', 'https://x.test/api/v1/api/v1/session/s')).toBe('http://127.0.0.1/api/v1/api/v1/session/s');
  });

  it('createHandlers: a base URL without /api/v1 answers an app that adds /api/v1 itself', async () => {
    const bare = await createHandlers({ baseUrl: 'https://bare.example.invalid', emulator: vtr.emulator });
    server.use(...bare.handlers);
    const res = await fetch('https://bare.example.invalid/api/v1/event', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ secret_key: vtr.emulator.site.secretKey, ip: '203.0.113.7' }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { risk_level: string }).risk_level).toBe('invalid');
    expect(emulatorUrl('https://x.test/proxy', 'https://x.test/proxy/api/v1/session/s?a=b')).toBe('http://127.0.0.1/api/v1/session/s?a=b');
  });

  it('createHandlers: a base URL that is missing or not http(s) is refused naming baseUrl, instead of handlers that match nothing', async () => {
    // No options at all, an unset environment variable, and a URL without its scheme (read as the scheme `localhost:`).
    await expect(createHandlers(undefined as unknown as { baseUrl: string })).rejects.toThrow(/^createHandlers: baseUrl: expected .*got undefined/);
    await expect(createHandlers({ baseUrl: process.env.VTR_NO_SUCH_VARIABLE as string })).rejects.toThrow(/^createHandlers: baseUrl: expected .*got undefined/);
    await expect(createHandlers({ baseUrl: 'localhost:3000/api/v1' })).rejects.toThrow(/^createHandlers: baseUrl: expected an http:\/\/ or https:\/\/ URL.*got "localhost:3000\/api\/v1" \(did you mean http:\/\/localhost:3000\/api\/v1\?\)/);
    await expect(createHandlers({ baseUrl: '/api/v1' })).rejects.toThrow(/^createHandlers: baseUrl: expected .*got "\/api\/v1"/);
  });

  it('createHandlers: a base URL with a query or a fragment is refused naming baseUrl, instead of handlers that ignore it', async () => {
    await expect(createHandlers({ baseUrl: 'https://x.example/api/v1?x=1' })).rejects.toThrow(
      /^createHandlers: baseUrl: expected a URL without a query or fragment .*got "https:\/\/x\.example\/api\/v1\?x=1"/,
    );
    await expect(createHandlers({ baseUrl: 'https://x.example/api/v1#top' })).rejects.toThrow(/^createHandlers: baseUrl: expected a URL without a query or fragment .*got "https:\/\/x\.example\/api\/v1#top"/);
    await expect(createHandlers({ baseUrl: 'https://x.example/api/v1?' })).rejects.toThrow(/^createHandlers: baseUrl: expected a URL without a query or fragment/);
  });

  it('createHandlers: an option name it does not know (emulatorOption for emulatorOptions) is refused listing the options, instead of being ignored', async () => {
    await expect(createHandlers({ baseUrl: BASE, emulatorOption: { clock: 'frozen' } } as never)).rejects.toThrow(
      new TypeError('createHandlers: unknown option "emulatorOption" (did you mean emulatorOptions?); the options are baseUrl, emulator, emulatorOptions'),
    );
  });

  it('createHandlers: an emulator that is not one (startEmulator() not awaited) is refused naming emulator, instead of handlers that answer every request with a 500', async () => {
    const { startEmulator } = await import('../src/index.js');
    const pending = startEmulator({ listen: false });
    try {
      await expect(createHandlers({ baseUrl: 'https://risk.example.com/api/v1', emulator: pending as never })).rejects.toThrow(
        /^createHandlers: emulator: got a Promise: pass the emulator startEmulator\(\) resolves with \(await it\)/,
      );
      await expect(createHandlers({ baseUrl: 'https://risk.example.com/api/v1', emulator: {} as never })).rejects.toThrow(/^createHandlers: emulator: expected the emulator startEmulator\(\) resolves with/);
    } finally {
      await (await pending).close();
    }
  });
});

// `import { startEmulator } from 'vtr'` as a user's test suite would use it (here from src/).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, startEmulator, type RunningEmulator, type Session } from '../src/index.js';

describe('startEmulator (library)', () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startEmulator();
  });
  afterAll(async () => {
    await emu?.close();
  });

  it('runs in memory on a free port with the default site’s credentials', () => {
    expect(emu.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    expect(emu.site).toEqual({
      siteId: expect.stringMatching(/^site_/),
      siteKey: expect.stringMatching(/^pk_test_/),
      secretKey: expect.stringMatching(/^sk_test_/),
      accessToken: expect.stringMatching(/^at_test_/),
    });
    expect(emu.clock.mode).toBe('system');
  });

  it('creates a session through the client and reads it with the access token', async () => {
    const created = await emu.client.admin<Session>('POST', `/sites/${emu.site.siteId}/sessions`, { body: { ip: '203.0.113.7' } });
    const session = await emu.client.api<Session>('GET', `/session/${created.session_id}`);
    expect(session).toMatchObject({ session_id: created.session_id, risk_level: 'invalid', site_id: emu.site.siteId });
    expect(await emu.client.api('POST', `/session/${created.session_id}/event`, { body: { name: 'conversion' } })).toEqual({ success: true });
    expect((await emu.client.api<Session>('GET', `/session/${created.session_id}`)).engagement_level).toBe('converted');
  });

  it('answers errors as ApiError with the contract’s code', async () => {
    const err = await emu.client.api('GET', '/session/ses_nope').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('runs visitor checks with the secret key', async () => {
    const r = await emu.client.api<{ risk_level: string; email: { disposable: boolean } }>('POST', '/event', {
      auth: 'none',
      body: { secret_key: emu.site.secretKey, email: 'someone@mailinator.com' },
    });
    expect(r.risk_level).toBe('suspicious');
    expect(r.email.disposable).toBe(true);
  });
});

describe('startEmulator options', () => {
  it('a manual clock moves only when told; close() frees the port', async () => {
    const emu = await startEmulator({ clock: 'manual' });
    const before = Date.parse(`${emu.clock.now()}Z`);
    await emu.clock.advance('2h');
    expect(Date.parse(`${emu.clock.now()}Z`) - before).toBeGreaterThanOrEqual(2 * 3600_000);
    await expect(emu.clock.advance('soon')).rejects.toThrow(/^emu.clock.advance: expected a duration .* got "soon"/);
    await emu.close();
    await expect(fetch(`${emu.baseUrl}/session/x`)).rejects.toThrow();
  });

  it('clock.set: takes an ISO time or a Date; anything else is refused naming what it takes', async () => {
    const emu = await startEmulator({ clock: 'frozen', listen: false });
    try {
      await emu.clock.set(new Date('2031-02-03T04:05:06Z'));
      expect(emu.clock.now()).toBe('2031-02-03T04:05:06.000000');
      await emu.clock.set('2031-02-04T00:00:00Z');
      expect(emu.clock.now()).toBe('2031-02-04T00:00:00.000000');
      await expect(emu.clock.set(12 as never)).rejects.toThrow(/^emu.clock.set: expected an ISO time .* or a Date, got 12/);
      await expect(emu.clock.set(new Date('nope'))).rejects.toThrow(/got an invalid Date/);
      await expect(emu.clock.advance(Number.NaN)).rejects.toThrow(/^emu.clock.advance: expected a duration/);
    } finally {
      await emu.close();
    }
  });

  it('clock.advance: a system clock is refused naming startEmulator\'s clock option, not a CLI flag', async () => {
    const emu = await startEmulator({ listen: false });
    try {
      const err = await emu.clock.advance('1h').then(() => null, (e: Error) => e);
      expect(err?.message).toMatch(/startEmulator\(\{ clock: 'frozen' \}\)/);
      expect(err?.message).not.toMatch(/--clock/);
    } finally {
      await emu.close();
    }
  });

  it('host: a non-loopback address needs adminToken, as vtr serve --host does; the helpers then send it', async () => {
    await expect(startEmulator({ host: '0.0.0.0' })).rejects.toThrow(/^startEmulator: host: "0.0.0.0" is not a loopback address.*pass adminToken/);
    const emu = await startEmulator({ host: '0.0.0.0', adminToken: 'lib-admin' });
    try {
      const origin = `http://127.0.0.1:${new URL(emu.baseUrl).port}`;
      expect((await fetch(`${origin}/_vtr/api/sites`)).status).toBe(401);
      expect((await fetch(`${origin}/_vtr/api/sites`, { headers: { authorization: 'Bearer lib-admin' } })).status).toBe(200);
      const s = await emu.sessions.create({ ip: '192.0.2.7' });
      expect((await emu.sessions.list()).map((x) => x.session_id)).toEqual([s.session_id]);
      expect((await emu.client.admin<unknown[]>('GET', '/sites')).length).toBe(1);
    } finally {
      await emu.close();
    }
  });

  it('host: loopback hosts as users write them ([::1], LOCALHOST) need no adminToken', async () => {
    const v6 = await startEmulator({ host: '[::1]' });
    try {
      expect(v6.baseUrl).toMatch(/^http:\/\/\[::1\]:\d+\/api\/v1$/);
      expect((await fetch(`${v6.baseUrl.replace(/\/api\/v1$/, '')}/_vtr/api/sites`)).status).toBe(200);
    } finally {
      await v6.close();
    }
    const named = await startEmulator({ host: 'LOCALHOST' });
    try {
      // The address localhost was bound to (::1 on some machines): a URL every client reaches.
      expect(named.baseUrl).toMatch(/^http:\/\/(127\.0\.0\.1|\[::1\]):\d+\/api\/v1$/);
      expect((await named.sessions.list())).toEqual([]);
    } finally {
      await named.close();
    }
    await expect(startEmulator({ host: 1 as never })).rejects.toThrow(/^startEmulator: host: expected a host name or address/);
  });

  it('host: on a wildcard address (0.0.0.0, ::) emu.baseUrl is on loopback, as vtr serve prints it', async () => {
    for (const [host, want] of [['0.0.0.0', '127.0.0.1'], ['::', '[::1]']] as const) {
      const emu = await startEmulator({ host, adminToken: 'lib-admin' });
      try {
        expect(new URL(emu.baseUrl).host).toBe(`${want}:${new URL(emu.baseUrl).port}`);
        expect((await fetch(`${emu.baseUrl}/event`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ secret_key: emu.site.secretKey }) })).status).toBe(200);
      } finally {
        await emu.close();
      }
    }
  });

  it('port: one in use is refused naming it and the fix', async () => {
    const a = await startEmulator();
    try {
      const port = Number(new URL(a.baseUrl).port);
      await expect(startEmulator({ port })).rejects.toThrow(`startEmulator: port ${port} on 127.0.0.1 is in use; leave port out (or 0) for a free one`);
    } finally {
      await a.close();
    }
  });

  it('host: an address of no interface of this machine is refused naming the host option and the fix', async () => {
    // 192.0.2.0/24 is reserved for documentation: no machine has it.
    const err = await startEmulator({ host: '192.0.2.1', adminToken: 't' }).catch((e: Error) => e);
    expect((err as Error).message).toMatch(/^startEmulator: host "192\.0\.2\.1": cannot listen there \(EADDRNOTAVAIL\); give a name or address of this machine, e\.g\. 127\.0\.0\.1$/);
  });

  it('two emulators are independent', async () => {
    const [a, b] = await Promise.all([startEmulator(), startEmulator()]);
    try {
      expect(a.baseUrl).not.toBe(b.baseUrl);
      const s = await a.client.admin<Session>('POST', `/sites/${a.site.siteId}/sessions`, { body: {} });
      await expect(b.client.api('GET', `/session/${s.session_id}`)).rejects.toMatchObject({ status: 404 });
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

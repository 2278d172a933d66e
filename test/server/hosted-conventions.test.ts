// Clients written for the hosted service: the secret key as the bearer token on the session
// endpoints, and PUT /api/v1/session/{id}/conversion.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/index.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator({ listen: false });
});
afterAll(() => emu?.close());

const bearer = (credential: string) => ({ authorization: `Bearer ${credential}` });

describe('hosted-service conventions', () => {
  it('session: the site\'s secret key reads its sessions; another site\'s key is a 404, a wrong one 401', async () => {
    const s = await emu.sessions.create({ ip: '192.0.2.60' });
    const read = (credential: string) => emu.fetch(`/api/v1/session/${s.session_id}`, { headers: bearer(credential) });
    const ok = await read(emu.site.secretKey);
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { session_id: string }).session_id).toBe(s.session_id);
    const other = await emu.fetch('/_vtr/api/sites', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Other' }) });
    const otherKey = ((await other.json()) as { secret_key: string }).secret_key;
    expect((await read(otherKey)).status).toBe(404);
    expect((await read('sk_test_nope')).status).toBe(401);
    const event = await emu.fetch(`/api/v1/session/${s.session_id}/event`, {
      method: 'POST', headers: { ...bearer(emu.site.secretKey), 'content-type': 'application/json' }, body: JSON.stringify({ name: 'signup' }),
    });
    expect(event.status).toBe(200);
  });

  it('paths: a base URL joined with a doubled slash, or a trailing slash, reaches the same route', async () => {
    const s = await emu.sessions.create({ ip: '192.0.2.63' });
    const read = (path: string) => emu.fetch(path, { headers: bearer(emu.site.accessToken) });
    for (const path of [`/api/v1//session/${s.session_id}`, `/api/v1/session/${s.session_id}/`]) {
      const res = await read(path);
      expect(res.status, path).toBe(200);
      expect(((await res.json()) as { session_id: string }).session_id).toBe(s.session_id);
    }
    const check = await emu.fetch('/api/v1//event/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ secret_key: emu.site.secretKey, ip: '192.0.2.1' }) });
    expect(check.status).toBe(200);
    // Only the base's slips: a doubled slash elsewhere is still an unknown path.
    expect((await read(`/api/v1/session//${s.session_id}`)).status).toBe(404);
    expect((await read('/api/v1/nope/')).status).toBe(404);
  });

  it('conversion: PUT adds the site\'s first conversion event once and answers success', async () => {
    const s = await emu.sessions.create({ ip: '192.0.2.61' });
    const put = () => emu.fetch(`/api/v1/session/${s.session_id}/conversion`, { method: 'PUT', headers: bearer(emu.site.accessToken) });
    for (let i = 0; i < 3; i++) {
      const res = await put();
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ success: true });
    }
    const after = await emu.sessions.get(s.session_id);
    expect(after.custom_events).toEqual(['conversion']);
    expect(after.engagement_level).toBe('converted');
    expect((await emu.fetch('/api/v1/session/ses_nope/conversion', { method: 'PUT', headers: bearer(emu.site.accessToken) })).status).toBe(404);
    expect((await emu.fetch(`/api/v1/session/${s.session_id}/conversion`, { method: 'PUT' })).status).toBe(401);
  });

  it('conversion: a site with no conversion events answers 409 conflict naming the fix, and the session is left as it was', async () => {
    const patch = (conversion_events: string[]) =>
      emu.fetch(`/_vtr/api/sites/${emu.site.siteId}`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ conversion_events }) });
    expect((await patch([])).status).toBe(200);
    try {
      const s = await emu.sessions.create({ ip: '192.0.2.62' });
      const res = await emu.fetch(`/api/v1/session/${s.session_id}/conversion`, { method: 'PUT', headers: bearer(emu.site.accessToken) });
      expect(res.status).toBe(409);
      const body = (await res.json()) as { code: string; message: string };
      expect(body.code).toBe('conflict');
      expect(body.message).toMatch(/no conversion events.*--conversion-events/);
      expect((await emu.sessions.get(s.session_id)).custom_events).toEqual([]);
    } finally {
      await patch(['conversion']);
    }
  });
});

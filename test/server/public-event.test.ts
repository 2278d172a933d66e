import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator } from '../../src/emulator.js';
import { TEST_USER_AGENTS as UA } from '../../src/domain/test-values.js';
import { TIMESTAMP } from '../helpers/service-fields.js';

type Emu = ReturnType<typeof createEmulator>;
let emu: Emu;
let secret: string;
let siteId: string;

const post = async (body: unknown, init: { raw?: string; type?: string | null } = {}) => {
  const headers: Record<string, string> = {};
  if (init.type !== null) headers['content-type'] = init.type ?? 'application/json';
  const res = await emu.app.request('/api/v1/event', { method: 'POST', headers, body: init.raw ?? JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
};
const check = (body: Record<string, unknown>) => post({ secret_key: secret, ...body });

/** A session through the agent's own endpoint: its probe, session id and IP. */
async function agentPageView(ip: string, ua: string = UA.chromeWindows, site_key = emu.deps.sites.get(siteId).site_key) {
  const res = await emu.app.request('/_vtr/agent/pageview', {
    method: 'POST',
    headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': ua, 'x-forwarded-for': ip },
    body: JSON.stringify({ site_key, url: 'https://shop.example.com/signup', language: 'en-US', timezone: 'America/New_York' }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { probe_id: string; session_id: string; fingerprint: string };
}

beforeAll(() => {
  emu = createEmulator({ dbPath: ':memory:' });
  const site = emu.bootstrap!.site;
  secret = site.secret_key;
  siteId = site.site_id;
});
afterAll(() => emu.close());

describe('POST /api/v1/event errors', () => {
  it('event: 401 without a secret_key, or with an empty or unknown one', async () => {
    for (const body of [{}, { email: 'a@example.com' }, { secret_key: '' }, { secret_key: null }, { secret_key: 'sk_test_nope' }]) {
      const r = await post(body);
      expect(r.status).toBe(401);
      expect(r.body.code).toBe('unauthorized');
    }
  });

  it('event: another kind of credential in secret_key is named, never echoed', async () => {
    const r = await post({ secret_key: 'at_test_0123456789abcdef0123456789abcdef' });
    expect(r.status).toBe(401);
    expect(r.body.message).toMatch(/that is an access token.*send the site's secret key \(sk_test_…\)/);
    expect(r.body.message).not.toContain('0123456789abcdef');
  });

  it('event: the secret key as the bearer token is a way in (clients written for the hosted service); the body wins', async () => {
    const post = (authorization: string, body: Record<string, unknown>) =>
      emu.app.request('/api/v1/event', { method: 'POST', headers: { 'content-type': 'application/json', authorization }, body: JSON.stringify(body) });
    expect((await post(`Bearer ${secret}`, { ip: '192.0.2.1' })).status).toBe(200);
    expect((await post('Bearer sk_test_wrong', {})).status).toBe(401);
    // The body's key is the one used: a right one there wins over a wrong header, and the reverse.
    expect((await post('Bearer sk_test_wrong', { secret_key: secret })).status).toBe(200);
    expect((await post(`Bearer ${secret}`, { secret_key: 'sk_test_wrong' })).status).toBe(401);
    // A null or empty secret_key is "not sent", as an SDK writing an unset field sends it.
    expect((await post(`Bearer ${secret}`, { secret_key: null, ip: '192.0.2.1' })).status).toBe(200);
    expect((await post(`Bearer ${secret}`, { secret_key: '' })).status).toBe(200);
  });

  it('event: a secret_key of white space only is "not sent" as "" is: the bearer is used, else the 401 asks for the key', async () => {
    const post = (body: Record<string, unknown>, authorization?: string) =>
      emu.app.request('/api/v1/event', { method: 'POST', headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) }, body: JSON.stringify(body) });
    expect((await post({ secret_key: ' \n' }, `Bearer ${secret}`)).status).toBe(200);
    const r = await post({ secret_key: '   ' });
    expect(r.status).toBe(401);
    expect(((await r.json()) as { message: string }).message).toMatch(/^send the site's secret key in the body/);
  });

  it('event: external_id is stored and echoed; over 50 characters or not a string or integer is a 400 naming it', async () => {
    const r = await check({ external_id: 'signup-42' });
    expect(r.body.external_id).toBe('signup-42');
    expect((await check({ external_id: 42 })).body.external_id).toBe(42);
    expect((await check({})).body.external_id).toBeNull();
    // Characters, not UTF-16 units: 50 emoji fit, 51 do not.
    expect((await check({ external_id: '😀'.repeat(50) })).status).toBe(200);
    expect((await check({ external_id: '😀'.repeat(51) })).status).toBe(400);
    const stored = await emu.app.request(`/_vtr/api/checks/${r.body.id as string}`);
    expect(((await stored.json()) as { external_id: string }).external_id).toBe('signup-42');
    for (const bad of ['x'.repeat(51), 1.5, { a: 1 }]) {
      const res = await check({ external_id: bad });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid_request', field: 'external_id' });
    }
  });

  it('event: an integer external_id past 2^53 is a 400 that says to send it as a string, as JSON numbers that large lose digits', async () => {
    for (const big of ['12345678901234567', '-12345678901234567', '1e20']) {
      const res = await emu.app.request('/api/v1/event', {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: `{"secret_key": ${JSON.stringify(secret)}, "external_id": ${big}}`,
      });
      expect(res.status, big).toBe(400);
      const body = (await res.json()) as { field: string; message: string };
      expect(body.field).toBe('external_id');
      expect(body.message, big).toMatch(/^external_id: .*as a string/);
    }
    expect((await check({ external_id: '12345678901234567' })).body.external_id).toBe('12345678901234567');
  });

  it('event: 400 naming the field for each wrong JSON type', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ email: 5 }, 'email: expected a string'],
      [{ probe_id: true }, 'probe_id: expected a string'],
      [{ ip: ['192.0.2.1'] }, 'ip: expected a string'],
      [{ name: {} }, 'name: expected a string'],
      [{ phone: 2126647665 }, 'phone: expected a string'],
      [{ address: 'Main St 1' }, 'address: expected an object'],
      [{ address: ['x'] }, 'address: expected an object'],
      [{ address: { city: 5 } }, 'address.city: expected a string'],
      [{ address: { postal_code: 10001 } }, 'address.postal_code: expected a string'],
    ];
    for (const [body, message] of cases) {
      const r = await check(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.code).toBe('invalid_request');
      expect(r.body.message).toContain(message);
    }
    const wrongKey = await post({ secret_key: 42 });
    expect(wrongKey).toMatchObject({ status: 400, body: { code: 'invalid_request', message: 'secret_key: expected a string' } });
  });

  it('event: 400 invalid_json for a body that is not JSON, 400 for a non-object', async () => {
    expect(await post(null, { raw: '{"secret_key": ' })).toMatchObject({ status: 400, body: { code: 'invalid_json' } });
    expect(await post(null, { raw: '[1,2]' })).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
    expect(await post(null, { raw: '"text"' })).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
  });

  it('event: 415 for a non-JSON content type', async () => {
    const r = await post(null, { raw: `secret_key=${secret}`, type: 'application/x-www-form-urlencoded' });
    expect(r).toMatchObject({ status: 415, body: { code: 'unsupported_media_type' } });
  });

  it('event: a gzip, deflate or br body (a client that compresses what it sends) is read as its JSON', async () => {
    const { gzipSync, deflateSync, deflateRawSync, brotliCompressSync } = await import('node:zlib');
    const json = JSON.stringify({ secret_key: secret, email: 'a@example.com' });
    const send = (coding: string, body: Uint8Array | string) => emu.app.request('/api/v1/event', {
      method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': coding }, body: body as string,
    });
    for (const [coding, body] of [['gzip', gzipSync(json)], ['x-gzip', gzipSync(json)], ['deflate', deflateSync(json)], ['deflate', deflateRawSync(json)], ['br', brotliCompressSync(json)], ['identity', json], ['GZIP', gzipSync(json)]] as const) {
      const res = await send(coding, body);
      expect(res.status, coding).toBe(200);
      expect(((await res.json()) as any).email.email, coding).toBe('a@example.com');
    }
    // Bytes that are not what the header says, another coding, and a body that grows past 1 MiB.
    const broken = await send('gzip', json);
    expect(broken.status).toBe(400);
    expect(await broken.json()).toEqual({ code: 'invalid_request', message: expect.stringContaining('gzip') });
    const other = await send('zstd', json);
    expect(other.status).toBe(415);
    expect(await other.json()).toEqual({ code: 'unsupported_media_type', message: expect.stringContaining('Content-Encoding zstd') });
    const bomb = await send('gzip', gzipSync(JSON.stringify({ secret_key: secret, name: 'x'.repeat(2 * 1024 * 1024) })));
    expect(bomb.status).toBe(413);
    expect(await bomb.json()).toMatchObject({ code: 'payload_too_large' });
  });

  it('event: a secret_key with a line break or spaces around it (read from a file) is a 401 saying so, not "unknown (rotated?)"', async () => {
    for (const key of [`${secret}\n`, ` ${secret}`, `${secret}\r\n`]) {
      const r = await post({ secret_key: key });
      expect(r, JSON.stringify(key)).toMatchObject({ status: 401, body: { code: 'unauthorized', message: expect.stringMatching(/^the secret key has white space or a line break around it/) } });
    }
  });

  it('event: 413 over 1 MiB', async () => {
    const r = await check({ name: 'x'.repeat(1024 * 1024 + 10) });
    expect(r).toMatchObject({ status: 413, body: { code: 'payload_too_large' } });
  });

  it('event: 405 with Allow for another method', async () => {
    const res = await emu.app.request('/api/v1/event', { method: 'GET' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toContain('POST');
  });
});

describe('POST /api/v1/event results', () => {
  it('event: only secret_key gives every section null and a normal verdict', async () => {
    const r = await check({});
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(['id', 'created_at', 'session_id', 'risk_level', 'risks', 'outcome', 'review', 'rules', 'external_id', 'device', 'ip', 'email', 'phone', 'address']);
    expect(r.body).toMatchObject({ session_id: null, risk_level: 'normal', risks: [], outcome: 'neutral', review: false, rules: [], device: null, ip: null, email: null, phone: null, address: null });
    expect(r.body.id).toMatch(/^chk_/);
    expect(r.body.created_at).toMatch(TIMESTAMP);
  });

  it('event: null fields and unknown fields count as not sent', async () => {
    const r = await check({ email: null, address: null, extra: { anything: 1 } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ email: null, address: null });
  });

  it('event: each reserved IP range gives its geo and risk level (risks in severity order)', async () => {
    const expected: Array<[string, string, string, string[]]> = [
      ['192.0.2.7', 'US', 'normal', []],
      ['198.51.100.7', 'GB', 'suspicious', ['anonymous', 'hosting']],
      ['203.0.113.7', 'DE', 'invalid', ['tor', 'anonymous']],
      ['2001:db8::7', 'FR', 'normal', []],
      ['198.18.0.7', 'NL', 'suspicious', ['anonymous', 'vpn']],
      ['198.18.1.7', 'US', 'suspicious', ['anonymous', 'proxy']],
    ];
    for (const [ip, country, level, risks] of expected) {
      const r = await check({ ip });
      expect(r.body.risk_level, ip).toBe(level);
      expect(r.body.risks).toEqual(risks);
      expect(r.body.ip).toMatchObject({ success: true, valid: true, country_code: country, in_country: country === 'US' });
    }
    const local = await check({ ip: '127.0.0.1' });
    expect(local.body).toMatchObject({ risk_level: 'normal', risks: [], ip: { bogon: true, country_code: null } });
    const bad = await check({ ip: 'not-an-ip' });
    expect(bad.body).toMatchObject({ risk_level: 'normal', ip: { success: true, valid: false } });
  });

  it('event: a disposable email is suspicious; a malformed one is reported, not refused', async () => {
    const r = await check({ email: 'someone@mailinator.com' });
    expect(r.body).toMatchObject({ risk_level: 'suspicious', risks: ['disposable_email'], email: { valid: true, disposable: true, domain: 'mailinator.com' } });
    const bad = await check({ email: 'not-an-email', name: 'Jane' });
    expect(bad.status).toBe(200);
    expect(bad.body).toMatchObject({ risk_level: 'normal', email: { valid: false } });
    const named = await check({ email: 'Jane.Doe+news@gmail.com', name: 'Jane Doe' });
    expect(named.body.email).toMatchObject({ valid: true, free: true, normalized_email: 'jane.doe@gmail.com', name_match: true });
  });

  it("event: phones in any format, local ones read in the site's country", async () => {
    const us = await check({ phone: '(212) 664-7665' });
    expect(us.body.phone).toMatchObject({ valid: true, phone: '+12126647665', country_code: 'US', in_country: true });
    const gb = await check({ phone: '+44 20 7946 0958' });
    expect(gb.body.phone).toMatchObject({ valid: true, phone: '+442079460958', country_code: 'GB', type: 'fixed_line', in_country: false });
    const bad = await check({ phone: '12345' });
    expect(bad.body).toMatchObject({ risk_level: 'normal', phone: { valid: false } });
  });

  it('event: an address is normalised', async () => {
    const r = await check({ address: { address1: '1600 Amphitheatre Pkwy', city: 'Mountain View', state: 'California', country: 'United States', postal_code: '94043' } });
    expect(r.body.address).toMatchObject({ valid: true, state_code: 'CA', country_code: 'US', postal_code_valid: true, in_country: true });
    const bad = await check({ address: { country: 'US', postal_code: 'ABC' } });
    expect(bad.body.address).toMatchObject({ valid: false, postal_code_valid: false });
  });

  it('event: bad probes are invalid_probe (empty, malformed, unknown, another site)', async () => {
    const other = emu.deps.sites.create({ name: 'Other' });
    const foreign = await agentPageView('192.0.2.10', UA.chromeWindows, other.site_key);
    for (const probe_id of ['', 'prb_bad', 'prb_' + 'A'.repeat(32), foreign.probe_id]) {
      const r = await check({ probe_id });
      expect(r.body, probe_id).toMatchObject({ risk_level: 'suspicious', risks: ['invalid_probe'], session_id: null, device: { success: true, valid: false } });
    }
  });

  it('event: a valid probe carries its session device, and ip comes from the session when not sent', async () => {
    const pv = await agentPageView('192.0.2.20');
    const r = await check({ probe_id: pv.probe_id });
    expect(r.body).toMatchObject({
      session_id: pv.session_id, risk_level: 'normal', risks: [],
      device: { valid: true, probe_id: pv.probe_id, probe_mins_elapsed: 0, probe_ip_match: null, fingerprint: pv.fingerprint,
        browser_name: 'Chrome', os_family: 'Windows', device_type: 'computer', language: 'en-US', bot: false, headless_browser: false },
      ip: { ip: '192.0.2.20', country_code: 'US' },
    });
  });

  it('event: a HeadlessChrome probe is a bot, and the check says so', async () => {
    const pv = await agentPageView('192.0.2.21', UA.headlessChrome);
    const r = await check({ probe_id: pv.probe_id, ip: '192.0.2.21' });
    expect(r.body).toMatchObject({ risk_level: 'invalid', risks: ['bot'], device: { valid: true, bot: true, headless_browser: true, probe_ip_match: true } });
  });

  it("event: an ip other than the probe's is ip_mismatch, recorded on the session", async () => {
    const pv = await agentPageView('192.0.2.30');
    const r = await check({ probe_id: pv.probe_id, ip: '203.0.113.9', email: 'x@mailinator.com' });
    expect(r.body.device.probe_ip_match).toBe(false);
    expect(r.body.risk_level).toBe('invalid');
    expect(r.body.risks).toEqual(['tor', 'anonymous', 'ip_mismatch', 'disposable_email']);
    const session = emu.deps.sessions.get(pv.session_id);
    expect(session.risks).toEqual(['tor', 'anonymous', 'ip_mismatch', 'disposable_email']);
    expect(session.risk_level).toBe('invalid');
    // A later check with the same probe sees the session's risks.
    const again = await check({ probe_id: pv.probe_id });
    expect(again.body.risks).toEqual(['tor', 'anonymous', 'ip_mismatch', 'disposable_email']);
  });

  it('event: an allowlisted IP is always normal', async () => {
    const site = emu.deps.sites.create({ name: 'Allow', ip_allowlist: ['203.0.113.0/24'] });
    const r = await post({ secret_key: site.secret_key, ip: '203.0.113.5' });
    expect(r.body).toMatchObject({ risk_level: 'normal', risks: ['tor', 'anonymous'] });
  });

  it('event: an excluded country is unwanted', async () => {
    const site = emu.deps.sites.create({ name: 'NoGB', excluded_countries: ['FR'] });
    const r = await post({ secret_key: site.secret_key, ip: '2001:db8::1' });
    expect(r.body).toMatchObject({ risk_level: 'unwanted', risks: ['excluded_country'] });
  });

  it('event: checks are stored, listed newest first, and published', async () => {
    const seen: string[] = [];
    const older = await check({ email: 'older@example.com' });
    const off = emu.deps.bus.subscribe((e) => e.type === 'check.created' && seen.push(String(e.data.id)));
    const r = await check({ email: 'list@example.com' });
    off();
    expect(seen).toEqual([r.body.id]);
    const one = await emu.app.request(`/_vtr/api/checks/${r.body.id}`);
    expect(await one.json()).toEqual({ ...r.body, site_id: siteId });
    const list = (await (await emu.app.request(`/_vtr/api/checks?site=${siteId}&limit=2`)).json()) as any[];
    expect(list.map((c) => c.id)).toEqual([r.body.id, older.body.id]);
    expect((await emu.app.request('/_vtr/api/checks/chk_nope')).status).toBe(404);
    expect((await emu.app.request('/_vtr/api/checks?limit=0')).status).toBe(400);
  });
});

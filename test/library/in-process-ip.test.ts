// The client IP of an in-process request (emu.fetch): no socket, so it is the
// machine's own, loopback, as a request to the listening port from this process would be; an
// X-Forwarded-For the caller sets is honoured as it is from a local proxy.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/index.js';

const json = { 'content-type': 'application/json' };
// A browser's, on both paths (Node's fetch says `node`, a bot).
const UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const IP_FIELDS = ['ip', 'ip_network', 'isp', 'country_code', 'city', 'risk_level', 'risks'] as const;
const ipFields = (s: Record<string, unknown>) => Object.fromEntries(IP_FIELDS.map((k) => [k, s[k]]));

describe('in-process client IP', () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startEmulator();
  });
  afterAll(async () => {
    await emu?.close();
  });

  const pageview = async (send: (path: string, init: RequestInit) => Promise<Response>, headers: Record<string, string> = {}) => {
    const res = await send('/_vtr/agent/pageview', { method: 'POST', headers: { ...json, 'user-agent': UA, ...headers }, body: JSON.stringify({ site_key: emu.site.siteKey, url: 'https://shop.test/' }) });
    expect(res.status).toBe(200);
    const pv = (await res.json()) as { session_id: string; probe_id: string };
    return { ...pv, session: (await emu.sessions.get(pv.session_id)) as unknown as Record<string, unknown> };
  };
  const overSocket = (path: string, init: RequestInit) => fetch(`${new URL(emu.baseUrl).origin}${path}`, init);
  const inProcess = (path: string, init: RequestInit) => emu.fetch(path, init);

  it('fetch: a page view records loopback as its IP, the same session fields as over the socket', async () => {
    const local = await pageview(inProcess);
    expect(local.session.ip).toBe('127.0.0.1');
    expect(ipFields(local.session)).toEqual(ipFields((await pageview(overSocket)).session));
  });

  it('fetch: a check with ip 127.0.0.1 and the probe of an in-process page view is an IP match', async () => {
    const pv = await pageview(inProcess);
    const res = await emu.fetch('/api/v1/event', { method: 'POST', headers: json, body: JSON.stringify({ secret_key: emu.site.secretKey, probe_id: pv.probe_id, ip: '127.0.0.1' }) });
    const check = (await res.json()) as { risks: string[]; device: { probe_ip_match: boolean | null } };
    expect(check.device.probe_ip_match).toBe(true);
    expect(check.risks).not.toContain('ip_mismatch');
  });

  it('fetch: an X-Forwarded-For set by the caller is the IP', async () => {
    expect((await pageview(inProcess, { 'x-forwarded-for': '198.51.100.4' })).session.ip).toBe('198.51.100.4');
  });
});

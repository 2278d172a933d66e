import { Script } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator } from '../../src/emulator.js';
import { browserScripts } from '../../src/server/browser-scripts.js';
import { TEST_USER_AGENTS as UA } from '../../src/domain/test-values.js';

let emu: ReturnType<typeof createEmulator>;
let siteKey: string;

const agentPost = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
  const res = await emu.app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'text/plain;charset=UTF-8', origin: 'http://localhost:3000', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
};
const pageview = (extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  agentPost('/_vtr/agent/pageview', { site_key: siteKey, url: 'https://shop.example.com/?utm_source=newsletter', ...extra }, { 'user-agent': UA.iphone, 'x-forwarded-for': '192.0.2.44', ...headers });

beforeAll(() => {
  emu = createEmulator({ dbPath: ':memory:' });
  siteKey = emu.bootstrap!.site.site_key;
});
afterAll(() => emu.close());

describe('agent script', () => {
  it('agent.js: served as JavaScript with CORS, and parses', async () => {
    const res = await emu.app.request('/agent.js', { headers: { origin: 'http://localhost:5173' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const text = await res.text();
    expect(text).toBe(browserScripts.get('agent'));
    expect(() => new Script(text)).not.toThrow();
  });

  it('agent.js: sets no global but window.vtr, and never throws without a DOM to work with', () => {
    const win: Record<string, unknown> = { location: { href: 'https://x.test/' }, navigator: {}, console: { warn() {} } };
    // A document with no script tags and nothing marked: the agent warns and stays quiet.
    const doc = { currentScript: null, readyState: 'complete', getElementsByTagName: () => [], querySelector: () => null, querySelectorAll: () => [], addEventListener() {} };
    win.addEventListener = () => {};
    const run = new Function('window', 'document', 'setTimeout', 'Promise', browserScripts.get('agent'));
    expect(() => run(win, doc, () => 0, Promise)).not.toThrow();
    expect(Object.keys(win).filter((k) => !['location', 'navigator', 'console', 'addEventListener'].includes(k))).toEqual(['vtr']);
    // A hostile page (window.fetch missing, localStorage throwing) does not throw either.
    expect(() => run({}, {}, () => 0, Promise)).not.toThrow();
  });
});

describe('agent endpoints', () => {
  it('pageview: records a page view and answers a probe, the session and a fingerprint', async () => {
    const r = await pageview({ language: 'en-GB', timezone: 'Europe/London', screen: '390x844', referrer: null });
    expect(r.status).toBe(200);
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    expect(r.body.probe_id).toMatch(/^prb_[0-9A-Za-z]{32}$/);
    const s = emu.deps.sessions.get(r.body.session_id);
    expect(s).toMatchObject({ fingerprint: r.body.fingerprint, ip: '192.0.2.44', device_type: 'mobile', channel: 'other', source: 'newsletter', language: 'en-GB', timezone: 'Europe/London', page_views: 1 });
    expect(emu.store.probes.get(r.body.probe_id)).toMatchObject({ session_id: r.body.session_id, ip: '192.0.2.44' });
  });

  it('pageview: the kept fingerprint continues the session with a new probe per page view', async () => {
    const first = await pageview();
    const second = await pageview({ url: 'https://shop.example.com/pricing', fingerprint: first.body.fingerprint });
    expect(second.body.session_id).toBe(first.body.session_id);
    expect(second.body.probe_id).not.toBe(first.body.probe_id);
    expect(emu.deps.sessions.get(first.body.session_id)).toMatchObject({ page_views: 2, exit_path: '/pricing' });
  });

  it('pageview: a headless browser (HeadlessChrome) joins sessions by its fingerprint as any browser does; its session is a bot', async () => {
    const headless = { 'user-agent': UA.headlessChrome, 'x-forwarded-for': '127.0.0.1' };
    const first = await pageview({}, headless);
    const second = await pageview({ url: 'https://shop.example.com/pricing', fingerprint: first.body.fingerprint }, headless);
    expect(second.body.session_id).toBe(first.body.session_id);
    expect(emu.deps.sessions.get(first.body.session_id)).toMatchObject({ page_views: 2, risks: ['bot'], risk_level: 'invalid' });
    // Without the fingerprint (another browser context, storage of its own) it is another visitor.
    expect((await pageview({}, headless)).body.session_id).not.toBe(first.body.session_id);
  });

  it('pageview: a made-up fingerprint shape is replaced; JSON content type works too', async () => {
    const r = await agentPost('/_vtr/agent/pageview', { site_key: siteKey, url: 'https://a.test/', fingerprint: 'bad fp!' }, { 'content-type': 'application/json' });
    expect(r.status).toBe(200);
    expect(r.body.fingerprint).toMatch(/^fp_/);
  });

  it('pageview: the user agent comes from the header, the body only fills in', async () => {
    const r = await pageview({ user_agent: UA.googlebot });
    expect(emu.deps.sessions.get(r.body.session_id).user_agent).toBe(UA.iphone);
    const noHeader = await emu.app.request('/_vtr/agent/pageview', { method: 'POST', body: JSON.stringify({ site_key: siteKey, url: 'https://a.test/', user_agent: UA.googlebot }) });
    const b = (await noHeader.json()) as any;
    expect(emu.deps.sessions.get(b.session_id).risks).toEqual(['crawler']);
  });

  it('pageview: 401 for a missing or unknown site key, 400 naming a bad field, 400 for bad JSON', async () => {
    const missing = await agentPost('/_vtr/agent/pageview', { url: 'https://a.test/' });
    expect(missing.status).toBe(401);
    // Errors carry CORS headers too, so the page's agent can read the message.
    expect(missing.headers.get('access-control-allow-origin')).toBe('*');
    expect((await agentPost('/_vtr/agent/pageview', { site_key: 'pk_test_nope', url: 'https://a.test/' })).body.code).toBe('unauthorized');
    const bad = await agentPost('/_vtr/agent/pageview', { site_key: siteKey, url: 5 });
    expect(bad).toMatchObject({ status: 400, body: { code: 'invalid_request', message: 'url: expected a string' } });
    expect((await agentPost('/_vtr/agent/pageview', '{nope')).body.code).toBe('invalid_json');
    expect((await agentPost('/_vtr/agent/pageview', 'x'.repeat(70_000))).status).toBe(413);
  });

  it('pageview: a body declaring a charset other than UTF-8 is a 415 naming it', async () => {
    const r = await agentPost('/_vtr/agent/pageview', { site_key: siteKey, url: 'https://a.test/' }, { 'content-type': 'text/plain; charset=utf-16' });
    expect(r).toMatchObject({ status: 415, body: { code: 'unsupported_media_type', message: expect.stringContaining('utf-16') } });
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('pageview, event and ping: a form-encoded body is a 415 naming its Content-Type, as on the public API; JSON as text/plain, application/json or without a type is read', async () => {
    for (const path of ['/_vtr/agent/pageview', '/_vtr/agent/event', '/_vtr/agent/ping']) {
      const r = await agentPost(path, `site_key=${siteKey}&url=x`, { 'content-type': 'application/x-www-form-urlencoded' });
      expect(r, path).toMatchObject({
        status: 415,
        body: { code: 'unsupported_media_type', message: 'Content-Type application/x-www-form-urlencoded is not supported; send JSON as application/json or text/plain' },
      });
      expect(r.headers.get('access-control-allow-origin')).toBe('*');
    }
    for (const type of ['text/plain;charset=UTF-8', 'text/plain', 'application/json', 'application/json; charset=utf-8']) {
      expect((await agentPost('/_vtr/agent/pageview', { site_key: siteKey, url: 'https://a.test/' }, { 'content-type': type })).status, type).toBe(200);
    }
    const untyped = await emu.app.request('/_vtr/agent/pageview', { method: 'POST', body: new TextEncoder().encode(JSON.stringify({ site_key: siteKey, url: 'https://a.test/' })) });
    expect(untyped.status).toBe(200);
    // As on the public API: an empty body is {}, and JSON that breaks says where.
    expect((await agentPost('/_vtr/agent/pageview', '')).body).toMatchObject({ code: 'unauthorized', message: expect.stringContaining('site_key is missing') });
    expect((await agentPost('/_vtr/agent/pageview', '{nope')).body.message).toMatch(/^the body is not valid JSON: ./);
  });

  it('pageview, event and ping: a site_key of the wrong type is a 400 naming site_key, not a missing key', async () => {
    for (const path of ['/_vtr/agent/pageview', '/_vtr/agent/event', '/_vtr/agent/ping']) {
      for (const key of [5, true, ['pk_test_x'], { key: 'x' }]) {
        const r = await agentPost(path, { site_key: key, url: 'https://a.test/' });
        expect(r, `${path} ${JSON.stringify(key)}`).toMatchObject({ status: 400, body: { code: 'invalid_request', field: 'site_key', message: 'site_key: expected a string' } });
      }
    }
    // Left out, null or empty, it is missing: the 401 that says how to set it.
    for (const key of [undefined, null, '']) {
      expect((await agentPost('/_vtr/agent/pageview', { site_key: key, url: 'https://a.test/' })).status).toBe(401);
    }
  });

  it('pageview and ping: an empty or blank url is a 400 invalid_request naming url, as the management API answers', async () => {
    const pv = await pageview();
    for (const url of ['', '   ']) {
      const view = await agentPost('/_vtr/agent/pageview', { site_key: siteKey, url });
      expect(view, JSON.stringify(url)).toMatchObject({ status: 400, body: { code: 'invalid_request', field: 'url' } });
      const ping = await agentPost('/_vtr/agent/ping', { site_key: siteKey, session_id: pv.body.session_id, probe_id: pv.body.probe_id, url });
      expect(ping, JSON.stringify(url)).toMatchObject({ status: 400, body: { code: 'invalid_request', field: 'url' } });
    }
  });

  it('pageview: a site key pasted with spaces or a line break around it is the site key', async () => {
    for (const key of [` ${siteKey}`, `${siteKey} `, `\n  ${siteKey}\n`]) {
      const r = await agentPost('/_vtr/agent/pageview', { site_key: key, url: 'https://a.test/' });
      expect(r.status, JSON.stringify(key)).toBe(200);
    }
  });

  it("pageview: a secret key or access token in data-site-key is refused saying it belongs on the server, not on a page", async () => {
    const site = emu.bootstrap!.site;
    for (const [key, what] of [[site.secret_key, 'secret key'], [emu.bootstrap!.token.token, 'access token'], ['sk_test_madeUp', 'secret key']] as const) {
      const r = await agentPost('/_vtr/agent/pageview', { site_key: key, url: 'https://a.test/' });
      expect(r, key).toMatchObject({ status: 401, body: { code: 'unauthorized' } });
      expect(r.body.message, key).toContain(what);
      expect(r.body.message, key).toMatch(/never .*page/);
      expect(r.body.message, key).toContain('pk_test_');
      // The message never repeats the credential itself.
      expect(r.body.message, key).not.toContain(key);
    }
  });

  it('pageview: an unknown site key names its likely causes: rotated, or an emulator restarted without its database', async () => {
    const r = await agentPost('/_vtr/agent/pageview', { site_key: 'pk_test_fromBeforeTheRestart0000', url: 'https://a.test/' });
    expect(r).toMatchObject({ status: 401, body: { code: 'unauthorized' } });
    expect(r.body.message).toMatch(/^the site key is unknown/);
    expect(r.body.message).toContain('rotated');
    expect(r.body.message).toMatch(/restarted without its database/);
    expect(r.body.message).toContain('--memory');
    expect(r.body.message).toContain('vtr keys show');
  });

  it('preflight: OPTIONS answers with CORS headers', async () => {
    const res = await emu.app.request('/_vtr/agent/event', {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('content-type');
  });

  it("event: adds a custom event to the probe's session, like the server endpoint", async () => {
    const pv = await pageview();
    const r = await agentPost('/_vtr/agent/event', { site_key: siteKey, session_id: pv.body.session_id, probe_id: pv.body.probe_id, name: 'conversion', value: 49 });
    expect(r).toMatchObject({ status: 200, body: { success: true } });
    expect(emu.deps.sessions.get(pv.body.session_id)).toMatchObject({ custom_events: ['conversion'], engagement_level: 'converted', value: 49 });
  });

  it('event: a name of only white space is a 400 naming name, as the public API answers; spaces around a name are dropped', async () => {
    const pv = await pageview();
    const ref = { site_key: siteKey, session_id: pv.body.session_id, probe_id: pv.body.probe_id };
    for (const name of [' ', '  \t']) {
      const r = await agentPost('/_vtr/agent/event', { ...ref, name });
      expect(r, JSON.stringify(name)).toMatchObject({ status: 400, body: { code: 'invalid_request', field: 'name' } });
      expect(r.body.message).toContain('blank');
    }
    expect((await agentPost('/_vtr/agent/event', { ...ref, name: ' conversion\n' })).status).toBe(200);
    expect(emu.deps.sessions.get(pv.body.session_id)).toMatchObject({ custom_events: ['conversion'], engagement_level: 'converted' });
  });

  it("event: refused with another session's probe or another site's key", async () => {
    const a = await pageview();
    const b = await pageview();
    const other = emu.deps.sites.create({ name: 'Other' });
    expect((await agentPost('/_vtr/agent/event', { site_key: siteKey, session_id: a.body.session_id, probe_id: b.body.probe_id, name: 'x' })).status).toBe(401);
    expect((await agentPost('/_vtr/agent/event', { site_key: other.site_key, session_id: a.body.session_id, probe_id: a.body.probe_id, name: 'x' })).status).toBe(401);
    expect((await agentPost('/_vtr/agent/event', { site_key: siteKey, session_id: a.body.session_id, probe_id: a.body.probe_id, name: '' })).status).toBe(400);
    expect(emu.deps.sessions.get(a.body.session_id).custom_events).toEqual([]);
  });

  it('event: refused with session_expired once a later page view started another session of the visitor', async () => {
    const first = await pageview({ url: 'https://shop.example.com/?gclid=first' });
    const second = await pageview({ url: 'https://shop.example.com/?gclid=second', fingerprint: first.body.fingerprint });
    expect(second.body.session_id).not.toBe(first.body.session_id);
    const r = await agentPost('/_vtr/agent/event', { site_key: siteKey, session_id: first.body.session_id, probe_id: first.body.probe_id, name: 'late' });
    expect(r).toMatchObject({ status: 409, body: { code: 'session_expired', message: expect.stringContaining('record a page view') } });
    expect(emu.deps.sessions.get(first.body.session_id).custom_events).toEqual([]);
  });

  it('ping: a session another ad click ended is not extended', async () => {
    const first = await pageview({ url: 'https://shop.example.com/?gclid=one' });
    await pageview({ url: 'https://shop.example.com/?gclid=two', fingerprint: first.body.fingerprint });
    const updated = emu.deps.sessions.get(first.body.session_id).updated_at;
    await new Promise((r) => setTimeout(r, 5));
    const r = await agentPost('/_vtr/agent/ping', { site_key: siteKey, session_id: first.body.session_id, probe_id: first.body.probe_id, url: 'https://shop.example.com/' });
    expect(r.body).toEqual({ success: true, extended: false });
    expect(emu.deps.sessions.get(first.body.session_id).updated_at).toBe(updated);
  });

  it('ping: extends a live session without adding a page view', async () => {
    const pv = await pageview();
    const r = await agentPost('/_vtr/agent/ping', { site_key: siteKey, session_id: pv.body.session_id, probe_id: pv.body.probe_id, url: 'https://shop.example.com/' });
    expect(r.body).toEqual({ success: true, extended: true });
    expect(emu.deps.sessions.get(pv.body.session_id).page_views).toBe(1);
  });

  it('ping: stores no probe (a ping answers none), and the page view\'s probe still works', async () => {
    const pv = await pageview();
    const before = emu.store.probes.all().length;
    for (let i = 0; i < 3; i++) {
      const r = await agentPost('/_vtr/agent/ping', { site_key: siteKey, session_id: pv.body.session_id, probe_id: pv.body.probe_id, url: 'https://shop.example.com/' });
      expect(r.body).toEqual({ success: true, extended: true });
    }
    expect(emu.store.probes.all().length).toBe(before);
    const e = await agentPost('/_vtr/agent/event', { site_key: siteKey, session_id: pv.body.session_id, probe_id: pv.body.probe_id, name: 'after_pings' });
    expect(e.status).toBe(200);
  });

  it('X-Forwarded-For: trusted only from loopback or in-process', async () => {
    // In-process requests have no socket; the served case is covered by the browser test.
    const r = await pageview({}, { 'x-forwarded-for': '203.0.113.50, 10.0.0.1' });
    expect(emu.deps.sessions.get(r.body.session_id)).toMatchObject({ ip: '203.0.113.50', risk_level: 'invalid' });
  });

  it('X-Forwarded-For: a first hop that is not an IP address is ignored, never stored as the IP', async () => {
    const r = await pageview({}, { 'x-forwarded-for': '<script>, 1.2.3.4' });
    expect(emu.deps.sessions.get(r.body.session_id).ip).toBe('127.0.0.1'); // the in-process peer's, as a socket's would be
  });

  it('pageview: language and timezone are kept canonical when valid; otherwise language is null and timezone comes from the IP', async () => {
    const good = await pageview({ language: 'de-de', timezone: 'europe/berlin' }, { 'x-forwarded-for': '198.51.100.8' });
    expect(emu.deps.sessions.get(good.body.session_id)).toMatchObject({ language: 'de-DE', timezone: 'Europe/Berlin' });
    const bad = await pageview({ language: '<script>not a tag', timezone: 'garbage zone' }, { 'x-forwarded-for': '198.51.100.8' });
    expect(emu.deps.sessions.get(bad.body.session_id)).toMatchObject({ language: null, timezone: 'Europe/London' });
    const none = await pageview({}, { 'x-forwarded-for': '203.0.113.9' });
    expect(emu.deps.sessions.get(none.body.session_id).timezone).toBe('Europe/Berlin');
  });
});

// The library's typed helpers, emu.fetch and emu.reset(), as a user's test suite calls them (from src/).
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, ConnectionError, startEmulator, type RunningEmulator } from '../../src/index.js';

// The global Request as the test file found it: an emulator must leave it alone.
const GlobalRequest = globalThis.Request;
const check = () => new Request('http://127.0.0.1/api/v1/event', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"ip": "192.0.2.1"}' });
const early = [check(), check()];

describe('library helpers', () => {
  let emu: RunningEmulator;
  let receiver: Server;
  let receiverUrl = '';
  const received: string[] = [];
  beforeAll(async () => {
    emu = await startEmulator();
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        received.push(body);
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  });
  afterAll(async () => {
    await emu?.close();
    receiver?.close();
  });

  it('sessions.create/get/list: a session made from page views, read back and found by filter', async () => {
    const s = await emu.sessions.create({ ip: '203.0.113.7', page_views: 2, duration: 30 });
    expect(s).toMatchObject({ site_id: emu.site.siteId, risk_level: 'invalid', page_views: 2 });
    expect((await emu.sessions.get(s.session_id)).session_id).toBe(s.session_id);
    const invalid = await emu.sessions.list('risk_level = invalid');
    expect(invalid.map((x) => x.session_id)).toContain(s.session_id);
    expect(await emu.sessions.list({ where: 'risk_level = normal and ip = 203.0.113.7' })).toEqual([]);
  });

  it('events.add: a conversion event converts the session', async () => {
    const s = await emu.sessions.create({ ip: '192.0.2.20' });
    await emu.events.add(s.session_id, 'conversion');
    const after = await emu.sessions.get(s.session_id);
    expect(after.custom_events).toEqual(['conversion']);
    expect(after.engagement_level).toBe('converted');
  });

  it('events.add: spaces around a name are dropped, so " conversion " converts; a blank name rejects with the 400 naming name', async () => {
    const s = await emu.sessions.create({ ip: '192.0.2.21' });
    await expect(emu.events.add(s.session_id, '   ')).rejects.toMatchObject({ status: 400, message: 'events.add: name: must not be empty or blank' });
    await emu.events.add(s.session_id, ' conversion ');
    expect(await emu.sessions.get(s.session_id)).toMatchObject({ custom_events: ['conversion'], engagement_level: 'converted' });
  });

  it('check: a visitor check with the site\'s key', async () => {
    const r = await emu.check({ ip: '203.0.113.9', email: 'x@mailinator.com' });
    expect(r.risk_level).toBe('invalid');
    expect(r.email?.disposable).toBe(true);
    // Typed as the contract says (tsc --noEmit checks this file): `valid` is a boolean.
    const valid: boolean | undefined = r.email?.valid;
    expect(typeof valid).toBe('boolean');
  });

  it('views/webhooks + waitFor: a matching session is delivered to the receiver', async () => {
    await emu.views.create({ name: 'tor', filter: 'risks contains tor' });
    const hook = await emu.webhooks.create(receiverUrl);
    expect(hook.status).toBe('enabled');
    const s = await emu.sessions.create({ ip: '203.0.113.50' });
    const event = await emu.webhooks.waitFor({ sessionId: s.session_id, timeoutMs: 10_000 });
    expect(event).toMatchObject({ session_id: s.session_id, webhook_id: hook.webhook_id, status: 'delivered' });
    expect(received.some((b) => b.includes(s.session_id))).toBe(true);
    const listed = await emu.webhooks.events({ webhookId: hook.webhook_id, status: 'delivered' });
    expect(listed.map((e) => e.webhook_event_id)).toContain(event.webhook_event_id);
  });

  it('views.create: trigger_webhooks left out or undefined is true, false stays false', async () => {
    const filter = 'page_views = 424242'; // no session of these tests
    expect((await emu.views.create({ name: 'left out', filter })).trigger_webhooks).toBe(true);
    expect((await emu.views.create({ name: 'undefined', filter, trigger_webhooks: undefined })).trigger_webhooks).toBe(true);
    expect((await emu.views.create({ name: 'off', filter, trigger_webhooks: false })).trigger_webhooks).toBe(false);
  });

  it('webhooks.events/waitFor: a status no event can have is refused at once, naming the statuses', async () => {
    await expect(emu.webhooks.events({ status: 'bogus' as never })).rejects.toThrow(/status: expected one of pending, retrying, delivered, failed/);
    await expect(emu.webhooks.waitFor({ status: 'delivred' as never, timeoutMs: 60_000 })).rejects.toThrow(/status: expected one of/);
  });

  it('webhooks.events/waitFor: an empty sessionId or webhookId is refused at once, not read as no filter (every event of the site)', async () => {
    await expect(emu.webhooks.events({ sessionId: '' })).rejects.toThrow(/^webhooks\.events: sessionId: expected a session id, got ""/);
    await expect(emu.webhooks.waitFor({ sessionId: '', timeoutMs: 60_000 })).rejects.toThrow(/^webhooks\.waitFor: sessionId: expected a session id, got ""/);
    await expect(emu.webhooks.events({ webhookId: '' })).rejects.toThrow(/^webhooks\.events: webhookId: expected a webhook id, got ""/);
    await expect(emu.webhooks.waitFor({ webhookId: '', timeoutMs: 60_000 })).rejects.toThrow(/^webhooks\.waitFor: webhookId: expected a webhook id, got ""/);
  });

  it('sessions.list: an empty or blank filter is refused, not read as no filter (every session)', async () => {
    await emu.sessions.create({ ip: '192.0.2.1' });
    for (const where of ['', '  ']) {
      await expect(emu.sessions.list(where)).rejects.toThrow(/^sessions\.list: where: expected a filter, got "\s*" \(leave it out for every session\)/);
      await expect(emu.sessions.list({ where })).rejects.toThrow(/^sessions\.list: where: expected a filter/);
    }
  });

  it('sessions.list: an option it does not take ({ filter }, as saved views name it) is refused naming where, not read as no filter (every session)', async () => {
    await emu.sessions.create({ ip: '192.0.2.1' });
    await expect(emu.sessions.list({ filter: 'risk_level = invalid' } as never)).rejects.toThrow(
      /^sessions\.list: unknown option "filter"; it takes \{ where, limit \} \(the filter goes in where\)$/,
    );
  });

  it('sessions.get/events.add/rules.update: a missing or empty id is refused naming the argument, not answered "session not found" or "no route"', async () => {
    // A JavaScript caller's slip: session.id (undefined) for session.session_id.
    const noId = undefined as unknown as string;
    await expect(emu.sessions.get(noId)).rejects.toThrow(/^sessions\.get: sessionId: expected a session id, got undefined/);
    await expect(emu.sessions.get('')).rejects.toThrow(/^sessions\.get: sessionId: expected a session id, got ""/);
    await expect(emu.events.add(noId, 'signup')).rejects.toThrow(/^events\.add: sessionId: expected a session id, got undefined/);
    await expect(emu.rules.update(' ', { enabled: false })).rejects.toThrow(/^rules\.update: ruleId: expected a rule id, got " "/);
    await expect(emu.sessions.get('ses_missing')).rejects.toThrow(ApiError);
  });

  it('webhooks.waitFor: rejects on timeout naming what it saw', async () => {
    const s = await emu.sessions.create({ ip: '192.0.2.77' });
    await expect(emu.webhooks.waitFor({ sessionId: s.session_id, timeoutMs: 100 })).rejects.toThrow(
      `webhooks.waitFor: no webhook event for session ${s.session_id} reached delivered within 100 ms; saw: no webhook event at all`,
    );
  });

  it('webhooks.waitFor: a timeoutMs that is not a number of milliseconds is refused at once, not waited on forever', async () => {
    await expect(emu.webhooks.waitFor({ timeoutMs: '5s' as never })).rejects.toThrow(/^webhooks\.waitFor: timeoutMs: expected a finite number of milliseconds \(0 or more\), got "5s"/);
    await expect(emu.webhooks.waitFor({ timeoutMs: Number.NaN })).rejects.toThrow(/^webhooks\.waitFor: timeoutMs: expected a finite number of milliseconds \(0 or more\), got NaN/);
    await expect(emu.webhooks.waitFor({ timeoutMs: Infinity })).rejects.toThrow(/^webhooks\.waitFor: timeoutMs: expected a finite number of milliseconds \(0 or more\), got Infinity/);
  });

  it('rules.create/update/list: a custom rule blocks, a smart rule is switched on', async () => {
    const rule = await emu.rules.create({ name: 'Block disposable', filter: 'risks contains disposable_email', action: 'block' });
    expect(rule).toMatchObject({ type: 'custom', enabled: true });
    expect((await emu.check({ email: 'x@mailinator.com' })).outcome).toBe('blocked');
    expect(await emu.rules.update('location', { enabled: true })).toMatchObject({ rule_id: 'location', enabled: true });
    expect((await emu.rules.list()).map((r) => r.rule_id)).toContain(rule.rule_id);
  });

  it('fetch: answers a Request in-process, as over HTTP', async () => {
    const s = await emu.sessions.create({});
    const res = await emu.fetch(new Request(`${emu.baseUrl}/session/${s.session_id}`, { headers: { authorization: `Bearer ${emu.site.accessToken}` } }));
    expect(res.status).toBe(200);
    expect(((await res.json()) as { session_id: string }).session_id).toBe(s.session_id);
    const relative = await emu.fetch('/api/v1/session/ses_nope', { headers: { authorization: `Bearer ${emu.site.accessToken}` } });
    expect(relative.status).toBe(404);
    expect(await relative.json()).toMatchObject({ code: 'not_found' });
  });

  it('fetch: anything but a URL or a Request (undefined, { url }) rejects with a TypeError, as the global fetch, not GET /undefined', async () => {
    await expect(emu.fetch(undefined as never)).rejects.toThrow(new TypeError('emu.fetch: expected a URL (a string or URL) or a Request, got undefined'));
    await expect(emu.fetch({ url: '/api/v1/session/x' } as never)).rejects.toThrow(/^emu\.fetch: expected a URL \(a string or URL\) or a Request, got an object$/);
    expect((await emu.fetch(new URL('/_vtr/health', emu.baseUrl))).status).toBe(200);
  });

  it('reset: all state gone, the default site back with the same keys and token', async () => {
    const before = { ...emu.site };
    const s = await emu.sessions.create({ ip: '192.0.2.5' });
    await emu.reset();
    expect(emu.site).toEqual(before);
    await expect(emu.sessions.get(s.session_id)).rejects.toBeInstanceOf(ApiError);
    expect(await emu.sessions.list()).toEqual([]);
    expect(await emu.webhooks.events()).toEqual([]);
    // The same keys still work, over HTTP too.
    const again = await emu.sessions.create({});
    expect((await emu.client.api<{ session_id: string }>('GET', `/session/${again.session_id}`)).session_id).toBe(again.session_id);
    expect((await emu.check({ ip: '192.0.2.1' })).risk_level).toBe('normal');
  });

  it('fetch: a listening emulator leaves the global Request alone and answers any Request, made before it started or cloned', async () => {
    expect(globalThis.Request).toBe(GlobalRequest);
    const withKey = new Request(early[0], { headers: { 'content-type': 'application/json', authorization: `Bearer ${emu.site.secretKey}` } });
    for (const req of [withKey.clone(), withKey]) {
      const res = await emu.fetch(req);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ ip: { ip: '192.0.2.1' } });
    }
    // Without a key, the same Request is the check route's 401, not some other path.
    expect((await emu.fetch(early[1])).status).toBe(401);
  });

  it('fetch: a Request of another copy of the class (undici\'s own) is answered with init merged, as fetch would', async () => {
    const { Request: UndiciRequest } = await import('undici');
    const foreign = new UndiciRequest(`${emu.baseUrl}/event`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"ip": "192.0.2.1"}' });
    const res = await emu.fetch(foreign as unknown as Request, { headers: { 'content-type': 'application/json', authorization: `Bearer ${emu.site.secretKey}` } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ip: { ip: '192.0.2.1' } });
  });

  it('reset: the default token is valid again if a test revoked it; tokens a test made are gone', async () => {
    const extra = await emu.client.admin<{ token: string }>('POST', `/sites/${emu.site.siteId}/tokens`);
    await emu.client.admin('DELETE', `/tokens/${emu.site.accessToken}`);
    await emu.reset();
    const s = await emu.sessions.create({});
    expect((await emu.sessions.get(s.session_id)).session_id).toBe(s.session_id);
    const tokens = await emu.client.admin<Array<{ token: string; revoked_at: string | null }>>('GET', `/sites/${emu.site.siteId}/tokens`);
    expect(tokens.map((t) => [t.token, t.revoked_at])).toEqual([[emu.site.accessToken, null]]);
    expect(tokens.map((t) => t.token)).not.toContain(extra.token);
  });

  it('close: what is called afterwards fails saying the emulator is closed, never a 500', async () => {
    const gone = await startEmulator({ listen: false });
    await gone.close();
    await gone.close();
    await expect(gone.sessions.list()).rejects.toThrow(/^sessions\.list: this emulator is closed \(emu.close\(\) was called\)/);
    await expect(gone.reset()).rejects.toThrow(/^emu\.reset: this emulator is closed/);
    await expect(gone.fetch('/_vtr/health')).rejects.toThrow(/^emu\.fetch: this emulator is closed/);
    await expect(gone.clock.advance('1m')).rejects.toThrow(/^emu\.clock\.advance: this emulator is closed/);
  });

  it('close: each helper called afterwards names itself in its rejection, which stays a ConnectionError', async () => {
    const gone = await startEmulator({ listen: false });
    await gone.close();
    const calls: Array<[string, () => Promise<unknown>]> = [
      ['sessions.create', () => gone.sessions.create({})],
      ['sessions.get', () => gone.sessions.get('ses_x')],
      ['events.add', () => gone.events.add('ses_x', 'signup')],
      ['check', () => gone.check({ ip: '192.0.2.1' })],
      ['views.create', () => gone.views.create({ name: 'v', filter: 'risk_level = invalid' })],
      ['rules.list', () => gone.rules.list()],
      ['rules.update', () => gone.rules.update('bot', { enabled: false })],
      ['webhooks.create', () => gone.webhooks.create('http://127.0.0.1:9/hook')],
      ['webhooks.events', () => gone.webhooks.events()],
      ['webhooks.waitFor', () => gone.webhooks.waitFor()],
    ];
    for (const [name, call] of calls) {
      const err = await call().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConnectionError);
      expect((err as Error).message).toBe(`${name}: this emulator is closed (emu.close() was called): start another with startEmulator()`);
    }
    await expect(gone.clock.set('2100-01-01T00:00:00Z')).rejects.toThrow(/^emu\.clock\.set: this emulator is closed/);
  });

  it('close: an open event stream ends with the emulator, not after the grace for stuck connections', async () => {
    const live = await startEmulator();
    const stream = await fetch(`${new URL(live.baseUrl).origin}/_vtr/api/stream`);
    expect(stream.status).toBe(200);
    const ended = stream.text();
    const started = performance.now();
    await live.close();
    // The grace after which connections still open are cut is 2 s; a kept-alive stream used to wait for it.
    expect(performance.now() - started).toBeLessThan(1_000);
    await expect(ended).resolves.toBeTypeOf('string');
  });

  it('startEmulator: options `vtr serve` would refuse are refused, naming the option', async () => {
    await expect(startEmulator({ clock: 'bogus' as never })).rejects.toThrow(/^startEmulator: clock: expected 'system', 'manual' or 'frozen', got "bogus"/);
    await expect(startEmulator({ webhookTimeoutMs: -1 })).rejects.toThrow(/webhookTimeoutMs: expected a number of milliseconds above 0/);
    await expect(startEmulator({ webhookTimeoutMs: 30 * 86_400_000 })).rejects.toThrow(/webhookTimeoutMs: expected at most 86400000 \(24 hours\)/);
    await expect(startEmulator({ retrySchedule: [1, 2] })).rejects.toThrow(/retrySchedule: expected five delays/);
    await expect(startEmulator({ port: 70000 })).rejects.toThrow(/port: expected a whole number 0-65535, got 70000$/);
    await expect(startEmulator({ smtpUrl: 'mail.example.com' })).rejects.toThrow(/^startEmulator: smtpUrl: "mail.example.com" is not an smtp:\/\/ URL/);
    await expect(startEmulator({ db: '' })).rejects.toThrow(/^startEmulator: db: expected a file name \(leave db out to keep nothing\), got ""/);
    await expect(startEmulator({ db: 5 as never })).rejects.toThrow(/^startEmulator: db: expected a file name .*, got 5/);
    // A port from the environment is a string: said so, not "expected 0-65535, got 4436".
    await expect(startEmulator({ port: '4436' as never })).rejects.toThrow(/^startEmulator: port: expected a whole number 0-65535, got "4436" \(a string: use Number\(\.\.\.\)\)/);
    await expect(startEmulator({ listen: 'no' as never })).rejects.toThrow(/^startEmulator: listen: expected true or false, got "no"/);
    // A token read from JSON or a number constant: refused at start, not a 500 on every management call.
    await expect(startEmulator({ adminToken: 5 as never, listen: false })).rejects.toThrow(/^startEmulator: adminToken: expected a string, got 5/);
    // 'false' from the environment is a string, which would turn jitter on.
    await expect(startEmulator({ retryJitter: 'false' as never, listen: false })).rejects.toThrow(/^startEmulator: retryJitter: expected true or false, got "false"/);
  });

  it('clock.advance: whole milliseconds only; a fraction is refused, naming what it takes', async () => {
    const emu = await startEmulator({ clock: 'frozen', listen: false });
    try {
      const before = emu.clock.now();
      await expect(emu.clock.advance(1.5)).rejects.toThrow(/^emu\.clock\.advance: expected a duration \("90s", "5m", "1h"\) or whole milliseconds, got 1\.5/);
      expect(emu.clock.now()).toBe(before);
      await emu.clock.advance(1500);
      expect(Date.parse(emu.clock.now()) - Date.parse(before)).toBe(1500);
    } finally {
      await emu.close();
    }
  });

  it('clock.advance: a number in a string ("1500") is refused, not read as seconds while the number 1500 is milliseconds', async () => {
    const emu = await startEmulator({ clock: 'frozen', listen: false });
    try {
      const before = emu.clock.now();
      await expect(emu.clock.advance('1500')).rejects.toThrow(/^emu\.clock\.advance: "1500" has no unit: give 1500 \(milliseconds\) or a duration with its unit \("1500ms", "1500s"\)/);
      expect(emu.clock.now()).toBe(before);
      await emu.clock.advance('1500ms');
      expect(Date.parse(emu.clock.now()) - Date.parse(before)).toBe(1500);
    } finally {
      await emu.close();
    }
  });

  it('clock.advance: a negative duration ("-5s", -5000) is refused saying the clock only moves forward', async () => {
    const emu = await startEmulator({ clock: 'frozen', listen: false });
    try {
      const before = emu.clock.now();
      await expect(emu.clock.advance('-5s')).rejects.toThrow(/^emu\.clock\.advance: "-5s": the clock only moves forward; give a positive duration \("5s"\)/);
      await expect(emu.clock.advance(-5000)).rejects.toThrow(/^emu\.clock\.advance: -5000: the clock only moves forward/);
      expect(emu.clock.now()).toBe(before);
    } finally {
      await emu.close();
    }
  });

  it('types: retrySchedule takes a readonly array (as const)', async () => {
    const schedule = [1, 2, 3, 4, 5] as const;
    const emu = await startEmulator({ listen: false, retrySchedule: schedule });
    await emu.close();
  });

  it('listen: false: no port, answered through fetch and the helpers', async () => {
    const quiet = await startEmulator({ listen: false });
    try {
      expect(quiet.baseUrl).toBe('http://127.0.0.1/api/v1');
      const s = await quiet.sessions.create({});
      expect((await quiet.client.api<{ session_id: string }>('GET', `/session/${s.session_id}`)).session_id).toBe(s.session_id);
    } finally {
      await quiet.close();
    }
  });
});

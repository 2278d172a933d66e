// The helpers called from JavaScript with an argument left out, null, or a bare id: each rejects
// saying what it takes, never a TypeError from inside vtr nor a wait on every session's events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, startEmulator, type RunningEmulator } from '../../src/index.js';

describe('library helper arguments', () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await startEmulator({ listen: false });
  });
  afterAll(() => emu?.close());

  it('views.create: left out, it rejects (a promise, as the other helpers) with the API\'s 400 naming name', async () => {
    const made = Promise.resolve().then(() => emu.views.create(undefined as never));
    const err = await made.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toMatch(/^views\.create: name: /);
    // Not thrown before a promise: a .catch() on the call sees it.
    await expect(emu.views.create(undefined as never).catch((e: unknown) => (e as Error).name)).resolves.toBe('ApiError');
  });

  it('webhooks.create: given an object ({ url }, as the other create helpers take) it makes the webhook from it', async () => {
    const hook = await emu.webhooks.create({ url: 'http://127.0.0.1:9/hook' });
    expect(hook.url).toBe('http://127.0.0.1:9/hook');
    expect(hook.webhook_id).toMatch(/^wh_/);
  });

  it('webhooks.create: given a URL object it makes the webhook at that URL, not the API\'s "the body must be a JSON object"', async () => {
    const hook = await emu.webhooks.create(new URL('http://127.0.0.1:9/from-url'));
    expect(hook.url).toBe('http://127.0.0.1:9/from-url');
  });

  it('webhooks.create: given { url } with a URL object it makes the webhook at that URL', async () => {
    const hook = await emu.webhooks.create({ url: new URL('http://127.0.0.1:9/from-url-field') });
    expect(hook.url).toBe('http://127.0.0.1:9/from-url-field');
  });

  it('webhooks.events/waitFor: null reads as no filter, as left out', async () => {
    await expect(emu.webhooks.events(null as never)).resolves.toEqual([]);
    await expect(emu.webhooks.waitFor(null as never)).rejects.toThrow(/^webhooks\.waitFor: no webhook event reached delivered within 5000 ms; saw: no webhook event at all$/);
  }, 10_000);

  it('webhooks.events/waitFor: a Map, a Date or any other object that is not a plain one is refused saying to pass a plain object, not read as every event of the site', async () => {
    await expect(emu.webhooks.events(new Map([['sessionId', 'ses_x']]) as never)).rejects.toThrow(
      new TypeError('webhooks.events: expected a filter ({ sessionId, webhookId, status }), got a Map: pass a plain object'),
    );
    await expect(emu.webhooks.waitFor(new Map() as never)).rejects.toThrow(
      new TypeError('webhooks.waitFor: expected options ({ sessionId, webhookId, status, timeoutMs }), got a Map: pass a plain object'),
    );
    await expect(emu.webhooks.events(new Date() as never)).rejects.toThrow(/^webhooks\.events: expected a filter \(.*\), got a Date: pass a plain object$/);
    class Options {
      sessionId = 'ses_x';
    }
    await expect(emu.webhooks.waitFor(new Options() as never)).rejects.toThrow(/^webhooks\.waitFor: expected options \(.*\), got an Options: pass a plain object$/);
    await expect(emu.webhooks.events([] as never)).rejects.toThrow(/^webhooks\.events: expected a filter \(.*\), got an array$/);
    // A plain object with no prototype is one.
    await expect(emu.webhooks.events(Object.create(null) as never)).resolves.toEqual([]);
  });

  it('webhooks.events/waitFor: an option written as the API writes its fields (session_id) is refused naming the option, not read as every event of the site', async () => {
    const session = await emu.sessions.create({ ip: '198.51.100.5' });
    await expect(emu.webhooks.waitFor({ session_id: session.session_id } as never)).rejects.toThrow(
      new TypeError('webhooks.waitFor: unknown option "session_id" (did you mean sessionId?); it takes { sessionId, webhookId, status, timeoutMs }'),
    );
    await expect(emu.webhooks.events({ webhook_id: 'wh_x' } as never)).rejects.toThrow(
      new TypeError('webhooks.events: unknown option "webhook_id" (did you mean webhookId?); it takes { sessionId, webhookId, status }'),
    );
    // waitFor's timeoutMs is taken by events too: one options object serves both.
    await expect(emu.webhooks.events({ timeoutMs: 5 } as never)).resolves.toEqual([]);
  });

  it('webhooks.events/waitFor: a misspelt or unknown option is refused naming it and what is taken, not read as every event of the site; waitFor\'s timeoutMs stays taken by events', async () => {
    const session = await emu.sessions.create({ ip: '198.51.100.6' });
    await expect(emu.webhooks.events({ sesionId: session.session_id } as never)).rejects.toThrow(
      new TypeError('webhooks.events: unknown option "sesionId" (did you mean sessionId?); it takes { sessionId, webhookId, status }'),
    );
    await expect(emu.webhooks.waitFor({ sesionId: session.session_id, timeoutMs: 60_000 } as never)).rejects.toThrow(
      new TypeError('webhooks.waitFor: unknown option "sesionId" (did you mean sessionId?); it takes { sessionId, webhookId, status, timeoutMs }'),
    );
    await expect(emu.webhooks.waitFor({ timeout: 100 } as never)).rejects.toThrow(
      new TypeError('webhooks.waitFor: unknown option "timeout" (did you mean timeoutMs?); it takes { sessionId, webhookId, status, timeoutMs }'),
    );
    await expect(emu.webhooks.events({ session: session.session_id } as never)).rejects.toThrow(
      new TypeError('webhooks.events: unknown option "session" (did you mean sessionId?); it takes { sessionId, webhookId, status }'),
    );
    await expect(emu.webhooks.events({ limit: 5 } as never)).rejects.toThrow(new TypeError('webhooks.events: unknown option "limit"; it takes { sessionId, webhookId, status }'));
    // One options object passed to both: waitFor's timeoutMs is taken by events, an undefined value is none.
    await expect(emu.webhooks.events({ sessionId: session.session_id, timeoutMs: 5 } as never)).resolves.toEqual([]);
    await expect(emu.webhooks.events({ sessionId: session.session_id, other: undefined } as never)).resolves.toEqual([]);
  });

  it('webhooks.events/waitFor: a bare session id is refused saying to pass { sessionId }, not read as every event of the site', async () => {
    const session = await emu.sessions.create({ ip: '198.51.100.4' });
    await expect(emu.webhooks.waitFor(session.session_id as never)).rejects.toThrow(
      new TypeError(`webhooks.waitFor: expected options ({ sessionId, webhookId, status, timeoutMs }), got "${session.session_id}": pass { sessionId: "${session.session_id}" }`),
    );
    await expect(emu.webhooks.events(session.session_id as never)).rejects.toThrow(/^webhooks\.events: expected a filter \(\{ sessionId, webhookId, status \}\), got "ses_[^"]+": pass \{ sessionId: "ses_/);
  });

  it('webhooks.waitFor/events: a session or webhook that does not exist rejects naming the helper and the id, still as the API\'s 404', async () => {
    const err = await emu.webhooks.waitFor({ sessionId: 'ses_nope' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 404, code: 'not_found' });
    expect((err as Error).message).toBe('webhooks.waitFor: session ses_nope not found, so no webhook event can come for it');
    await expect(emu.webhooks.waitFor({ webhookId: 'wh_nope', status: 'failed' })).rejects.toThrow(/^webhooks\.waitFor: webhook wh_nope not found, so no webhook event can come for it$/);
    await expect(emu.webhooks.events({ sessionId: 'ses_nope' })).rejects.toThrow(/^webhooks\.events: session ses_nope not found$/);
  });

  it('sessions.list: any option it does not take, or an argument neither a filter string nor { where, limit }, is refused naming it, not read as every session', async () => {
    await emu.sessions.create({ ip: '192.0.2.9' });
    await expect(emu.sessions.list({ wher: 'risk_level = invalid' } as never)).rejects.toThrow(new TypeError('sessions.list: unknown option "wher" (did you mean where?); it takes { where, limit }'));
    await expect(emu.sessions.list({ Limit: 5 } as never)).rejects.toThrow(new TypeError('sessions.list: unknown option "Limit" (did you mean limit?); it takes { where, limit }'));
    await expect(emu.sessions.list({ max: 1 } as never)).rejects.toThrow(new TypeError('sessions.list: unknown option "max"; it takes { where, limit }'));
    await expect(emu.sessions.list(5 as never)).rejects.toThrow(new TypeError('sessions.list: expected a filter string or { where, limit }, got 5'));
    await expect(emu.sessions.list(['risk_level = invalid'] as never)).rejects.toThrow(new TypeError('sessions.list: expected a filter string or { where, limit }, got an array'));
    // Left out, null or undefined values: every session, as before.
    await expect(emu.sessions.list(null as never)).resolves.not.toHaveLength(0);
    await expect(emu.sessions.list({ where: undefined, limit: undefined })).resolves.not.toHaveLength(0);
  });

  it('sessions.list: a Map or another object that is not a plain one is refused saying to pass a plain object, not read as every session', async () => {
    await emu.sessions.create({ ip: '192.0.2.12' });
    await expect(emu.sessions.list(new Map([['where', 'risk_level = invalid']]) as never)).rejects.toThrow(
      new TypeError('sessions.list: expected a filter string or { where, limit }, got a Map: pass a plain object'),
    );
    await expect(emu.sessions.list(new Date() as never)).rejects.toThrow(/^sessions\.list: expected a filter string or \{ where, limit \}, got a Date: pass a plain object$/);
  });

  it('sessions.list: a where that is not a filter string (an object of fields, a number) is refused naming where, not parsed as "[object Object]"', async () => {
    await expect(emu.sessions.list({ where: { risk_level: 'invalid' } } as never)).rejects.toThrow(
      new TypeError('sessions.list: where: expected a filter string (e.g. "risk_level = invalid"), got an object'),
    );
    await expect(emu.sessions.list({ where: 5 } as never)).rejects.toThrow(new TypeError('sessions.list: where: expected a filter string (e.g. "risk_level = invalid"), got 5'));
  });

  it('sessions.list: where: null is refused as any other where that is not a filter string, not read as every session; undefined is no filter, as left out', async () => {
    await emu.sessions.create({ ip: '192.0.2.10' });
    await expect(emu.sessions.list({ where: null } as never)).rejects.toThrow(new TypeError('sessions.list: where: expected a filter string (e.g. "risk_level = invalid"), got null'));
    await expect(emu.sessions.list({ where: null, limit: 1 } as never)).rejects.toThrow(/^sessions\.list: where: expected a filter string .*, got null$/);
    await expect(emu.sessions.list({ where: undefined })).resolves.not.toHaveLength(0);
  });

  it('helpers: a NaN or an Infinity among the fields is refused naming the field, not sent as null (unset, or refused as null)', async () => {
    await expect(emu.sessions.create({ ip: '192.0.2.10', page_views: Number.NaN })).rejects.toThrow(new TypeError('sessions.create: page_views: expected a number, got NaN (JSON would send null)'));
    await expect(emu.check({ ip: '192.0.2.10', external_id: Number.POSITIVE_INFINITY } as never)).rejects.toThrow(new TypeError('check: external_id: expected a number, got Infinity (JSON would send null)'));
    await expect(emu.rules.update('repeat_device', { threshold: Number.NaN })).rejects.toThrow(new TypeError('rules.update: threshold: expected a number, got NaN (JSON would send null)'));
    await expect(emu.check({ ip: '192.0.2.10', address: { lat: -Infinity } } as never)).rejects.toThrow(/^check: address\.lat: expected a number, got -Infinity/);
    await expect(emu.sessions.create({ ip: '192.0.2.10', page_views: 2 })).resolves.toMatchObject({ page_views: 2 });
  });

  it('sessions.list: limit: a string or anything else not a number is refused naming limit, nothing sent', async () => {
    await emu.sessions.create({ ip: '192.0.2.13' });
    await expect(emu.sessions.list({ limit: '5' } as never)).rejects.toThrow(new TypeError('sessions.list: limit: expected a whole number from 1 to 10000, got "5" (a string: use Number(...))'));
    await expect(emu.sessions.list({ where: 'risk_level = invalid', limit: '5' } as never)).rejects.toThrow(/^sessions\.list: limit: expected a whole number from 1 to 10000, got "5"/);
    await expect(emu.sessions.list({ limit: true } as never)).rejects.toThrow(new TypeError('sessions.list: limit: expected a whole number from 1 to 10000, got true'));
    await expect(emu.sessions.list({ limit: [5] } as never)).rejects.toThrow(new TypeError('sessions.list: limit: expected a whole number from 1 to 10000, got an array'));
    // A number out of range is the API's own 400, as before.
    await expect(emu.sessions.list({ limit: 0 })).rejects.toMatchObject({ status: 400, code: 'invalid_request' });
    await expect(emu.sessions.list({ limit: 1 })).resolves.toHaveLength(1);
  });

  it('sessions.list: limit: null is refused, not read as the default page; undefined is the default, as left out', async () => {
    await emu.sessions.create({ ip: '192.0.2.10' });
    await expect(emu.sessions.list({ limit: null } as never)).rejects.toThrow(new TypeError('sessions.list: limit: expected a whole number from 1 to 10000, got null (leave it out for the default)'));
    await expect(emu.sessions.list({ where: 'risk_level = invalid', limit: null } as never)).rejects.toThrow(/^sessions\.list: limit: expected a whole number from 1 to 10000, got null/);
    await expect(emu.sessions.list({ limit: undefined })).resolves.not.toHaveLength(0);
  });

  it('helpers: a bad argument of their own rejects (never throws at the call) with a TypeError naming the option; a slip in an API body is the API\'s 400 ApiError naming the helper and the field', async () => {
    const own: [() => Promise<unknown>, RegExp][] = [
      [() => emu.webhooks.waitFor({ session_id: 'ses_x' } as never), /^webhooks\.waitFor: unknown option "session_id" \(did you mean sessionId\?\)/],
      [() => emu.webhooks.events({ status: 'sent' as never }), /status: expected one of pending, retrying, delivered, failed, got "sent"/],
      [() => emu.webhooks.waitFor({ timeoutMs: '5s' as never }), /timeoutMs: expected a finite number of milliseconds/],
      [() => emu.sessions.list({ wher: 'x' } as never), /^sessions\.list: unknown option "wher"/],
      [() => emu.sessions.get(undefined as never), /^sessions\.get: sessionId: expected a session id, got undefined/],
      [() => emu.events.add('', 'signup'), /^events\.add: sessionId: /],
      [() => emu.rules.update(undefined as never, {}), /^rules\.update: ruleId: /],
      [() => emu.clock.advance('soon'), /^emu\.clock\.advance: expected a duration/],
      [() => emu.clock.set('soon'), /^emu\.clock\.set: expected an ISO time/],
      [() => emu.fetch({ url: '/api/v1/session/x' } as never), /^emu\.fetch: expected a URL/],
    ];
    for (const [call, message] of own) {
      let pending: Promise<unknown> | undefined;
      expect(() => (pending = call())).not.toThrow();
      const err = await pending!.catch((e: unknown) => e);
      expect(err).toBeInstanceOf(TypeError);
      expect((err as Error).message).toMatch(message);
    }
    const body: [() => Promise<unknown>, string][] = [
      [() => emu.views.create({} as never), 'views.create: name: required, a string'],
      [() => emu.sessions.create({ userAgent: 'x' } as never), 'sessions.create: userAgent: unknown field'],
      [() => emu.webhooks.create(undefined as never), 'webhooks.create: url: required, a string'],
      [() => emu.events.add('ses_x', undefined as never), 'events.add: name: required, a string of 1 to 100 characters'],
    ];
    for (const [call, message] of body) {
      const err = await call().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect(err).toMatchObject({ status: 400, code: 'invalid_request', message });
    }
  });

  it('webhooks.events/waitFor, sessions.list: a refused status, empty id, timeoutMs or where is a TypeError that starts with the method\'s name, as every other refusal does', async () => {
    const own: [() => Promise<unknown>, string][] = [
      [() => emu.webhooks.events({ status: 'sent' as never }), 'webhooks.events: status: expected one of pending, retrying, delivered, failed, got "sent"'],
      [() => emu.webhooks.waitFor({ status: 'sent' as never, timeoutMs: 60_000 }), 'webhooks.waitFor: status: expected one of pending, retrying, delivered, failed, got "sent"'],
      [() => emu.webhooks.events({ sessionId: '' }), 'webhooks.events: sessionId: expected a session id, got ""'],
      [() => emu.webhooks.waitFor({ webhookId: ' ', timeoutMs: 60_000 }), 'webhooks.waitFor: webhookId: expected a webhook id, got " "'],
      // Infinity would never pass the deadline: a wait that never ends, a suite that hangs.
      [() => emu.webhooks.waitFor({ timeoutMs: Infinity }), 'webhooks.waitFor: timeoutMs: expected a finite number of milliseconds (0 or more), got Infinity'],
      [() => emu.webhooks.waitFor({ timeoutMs: -1 }), 'webhooks.waitFor: timeoutMs: expected a finite number of milliseconds (0 or more), got -1'],
      [() => emu.webhooks.waitFor({ timeoutMs: -Infinity }), 'webhooks.waitFor: timeoutMs: expected a finite number of milliseconds (0 or more), got -Infinity'],
      [() => emu.webhooks.waitFor({ timeoutMs: Number.NaN }), 'webhooks.waitFor: timeoutMs: expected a finite number of milliseconds (0 or more), got NaN'],
      [() => emu.sessions.list({ where: '' }), 'sessions.list: where: expected a filter, got "" (leave it out for every session)'],
    ];
    for (const [call, message] of own) {
      const err = await call().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(TypeError);
      expect((err as Error).message).toBe(message);
    }
  });

  it('rules.list: an argument (a filter, a limit) is refused saying it takes none, not ignored with every rule listed', async () => {
    // Typed as taking none: a TypeScript caller cannot pass one.
    const list = emu.rules.list as (...args: unknown[]) => Promise<unknown[]>;
    await expect(list('x')).rejects.toThrow(new TypeError('rules.list: takes no arguments, got "x"'));
    await expect(list({ enabled: true })).rejects.toThrow(new TypeError('rules.list: takes no arguments, got an object'));
    let pending: Promise<unknown> | undefined;
    expect(() => (pending = list(5))).not.toThrow();
    await expect(pending).rejects.toThrow(new TypeError('rules.list: takes no arguments, got 5'));
    // Undefined, as an optional parameter passed on, is none.
    await expect(list(undefined)).resolves.not.toHaveLength(0);
  });

  it('sessions.list/webhooks.events/waitFor: a second argument (a limit, a timeout) is refused saying where it goes, not ignored', async () => {
    const session = await emu.sessions.create({ ip: '192.0.2.11' });
    const listSessions = emu.sessions.list as (...args: unknown[]) => Promise<unknown[]>;
    await expect(listSessions('risk_level = invalid', 10)).rejects.toThrow(
      new TypeError('sessions.list: takes one argument, got a second: 10: pass { where: "risk_level = invalid", limit: 10 }'),
    );
    await expect(listSessions({ limit: 5 }, 10)).rejects.toThrow(new TypeError('sessions.list: takes one argument, got a second: 10: pass it as limit'));
    const events = emu.webhooks.events as (...args: unknown[]) => Promise<unknown[]>;
    await expect(events({ sessionId: session.session_id }, 'delivered')).rejects.toThrow(new TypeError('webhooks.events: takes one argument, got a second: "delivered"'));
    const waitFor = emu.webhooks.waitFor as (...args: unknown[]) => Promise<unknown>;
    await expect(waitFor({ sessionId: session.session_id }, 10_000)).rejects.toThrow(new TypeError('webhooks.waitFor: takes one argument, got a second: 10000: pass it as timeoutMs'));
    // Undefined, as an optional parameter passed on, is none.
    await expect(listSessions(undefined, undefined)).resolves.not.toHaveLength(0);
    await expect(events({ sessionId: session.session_id }, undefined)).resolves.toEqual([]);
  });

  it('sessions.get/events.add/rules.update/webhooks.events: a whole session or rule for its id is refused saying which field to pass, not "got [object Object]"', async () => {
    const session = await emu.sessions.create({ ip: '198.51.100.7' });
    await expect(emu.sessions.get(session as never)).rejects.toThrow(
      new TypeError(`sessions.get: sessionId: expected a session id, got an object: pass its session_id ("${session.session_id}")`),
    );
    await expect(emu.events.add(session as never, 'signup')).rejects.toThrow(
      new TypeError(`events.add: sessionId: expected a session id, got an object: pass its session_id ("${session.session_id}")`),
    );
    await expect(emu.webhooks.events({ sessionId: session as never })).rejects.toThrow(
      new TypeError(`webhooks.events: sessionId: expected a session id, got an object: pass its session_id ("${session.session_id}")`),
    );
    const [rule] = await emu.rules.list();
    await expect(emu.rules.update(rule as never, { enabled: true })).rejects.toThrow(
      new TypeError(`rules.update: ruleId: expected a rule id, got an object: pass its rule_id ("${rule.rule_id}")`),
    );
    await expect(emu.sessions.get({} as never)).rejects.toThrow(new TypeError('sessions.get: sessionId: expected a session id, got an object'));
    await expect(emu.sessions.get([] as never)).rejects.toThrow(new TypeError('sessions.get: sessionId: expected a session id, got an array'));
  });

  it('sessions.create: an input that is not an object of the session\'s fields (a bare IP, an array) is refused naming it, as check\'s is', async () => {
    await expect(emu.sessions.create('203.0.113.7' as never)).rejects.toThrow(
      new TypeError('sessions.create: expected the session\'s fields ({ ip, user_agent, ... }), got "203.0.113.7": pass { ip: "203.0.113.7" }'),
    );
    await expect(emu.sessions.create([{ ip: '203.0.113.7' }] as never)).rejects.toThrow(new TypeError('sessions.create: expected the session\'s fields ({ ip, user_agent, ... }), got an array'));
    // Left out: a session with none of its own fields, as before.
    await expect(emu.sessions.create()).resolves.toHaveProperty('session_id');
  });

  it('check: an input that is not an object of the check\'s fields (a bare IP, an array) is refused naming it, not run as a check with no fields', async () => {
    await expect(emu.check('203.0.113.7' as never)).rejects.toThrow(new TypeError('check: expected the check\'s fields ({ ip, email, ... }), got "203.0.113.7": pass { ip: "203.0.113.7" }'));
    await expect(emu.check('x@example.com' as never)).rejects.toThrow(/got "x@example\.com": pass \{ email: "x@example\.com" \}$/);
    await expect(emu.check([{ ip: '203.0.113.7' }] as never)).rejects.toThrow(new TypeError('check: expected the check\'s fields ({ ip, email, ... }), got an array'));
    // Left out or null: a check with no fields, as before.
    await expect(emu.check()).resolves.toHaveProperty('outcome');
    await expect(emu.check(null as never)).resolves.toHaveProperty('outcome');
  });

  it('sessions.create/check/views.create/rules.create: a Map or another object that is not a plain one is refused saying to pass a plain object, not sent as no fields at all', async () => {
    await expect(emu.sessions.create(new Map([['ip', '203.0.113.7']]) as never)).rejects.toThrow(
      new TypeError('sessions.create: expected the session\'s fields ({ ip, user_agent, ... }), got a Map: pass a plain object'),
    );
    await expect(emu.check(new Map([['ip', '203.0.113.7']]) as never)).rejects.toThrow(
      new TypeError('check: expected the check\'s fields ({ ip, email, ... }), got a Map: pass a plain object'),
    );
    await expect(emu.views.create(new Map() as never)).rejects.toThrow(/^views\.create: expected the view's fields .*, got a Map: pass a plain object$/);
    await expect(emu.rules.create(new Date() as never)).rejects.toThrow(/^rules\.create: expected the rule's fields .*, got a Date: pass a plain object$/);
    // One with no prototype is a plain object.
    await expect(emu.sessions.create(Object.assign(Object.create(null), { ip: '203.0.113.8' }))).resolves.toMatchObject({ ip: '203.0.113.8' });
    // A class's instance is sent as its own fields, as JSON.stringify sends it.
    class SessionFields {
      constructor(readonly ip: string) {}
    }
    await expect(emu.sessions.create(new SessionFields('203.0.113.9'))).resolves.toMatchObject({ ip: '203.0.113.9' });
  });

  it('views.create/rules.create/webhooks.create: a bare string or an array for the fields is a TypeError saying what to pass, not the API\'s "name: required" or "the body must be a JSON object"', async () => {
    await expect(emu.views.create('tor' as never)).rejects.toThrow(
      new TypeError('views.create: expected the view\'s fields ({ name, filter, trigger_webhooks? }), got "tor": pass { name: ..., filter: "tor" }'),
    );
    await expect(emu.views.create([] as never)).rejects.toThrow(new TypeError('views.create: expected the view\'s fields ({ name, filter, trigger_webhooks? }), got an array'));
    await expect(emu.rules.create('risk_level = invalid' as never)).rejects.toThrow(
      new TypeError('rules.create: expected the rule\'s fields ({ filter, action, name?, enabled? }), got "risk_level = invalid": pass { filter: "risk_level = invalid", action: ... }'),
    );
    await expect(emu.webhooks.create(['http://127.0.0.1:9/a'] as never)).rejects.toThrow(
      new TypeError('webhooks.create: expected a URL (a string or URL) or { url }, got an array'),
    );
    // Left out: still the API's 400 naming the field, as before.
    await expect(emu.rules.create(undefined as never)).rejects.toBeInstanceOf(ApiError);
  });

  it('rules.update: changes that are not a plain object (a Map, a bare action, an array) are refused saying what to pass, not sent as no change or as "the body must be a JSON object"', async () => {
    const takes = "rules.update: expected the fields to change ({ action?, enabled?, threshold?, name?, filter? })";
    await expect(emu.rules.update('bot', new Map([['action', 'allow']]) as never)).rejects.toThrow(new TypeError(`${takes}, got a Map: pass a plain object`));
    await expect(emu.rules.update('bot', 'allow' as never)).rejects.toThrow(new TypeError(`${takes}, got "allow": pass { action: "allow" }`));
    await expect(emu.rules.update('bot', [] as never)).rejects.toThrow(new TypeError(`${takes}, got an array`));
    expect((await emu.rules.list()).find((r) => r.rule_id === 'bot')?.action).toBe('block');
    // Left out: still the API's 400 saying what to send.
    await expect(emu.rules.update('bot', undefined as never)).rejects.toBeInstanceOf(ApiError);
  });
});

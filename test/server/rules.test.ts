// Rules, outcomes and actions through the same pipeline as HTTP (emu.fetch): the test values that
// give each outcome, the session's actions, and the device rules counting stored checks.
import { afterAll, beforeEach, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/index.js';
import { TEST_USER_AGENTS as UA } from '../../src/domain/test-values.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator({ listen: false });
});
beforeEach(() => emu.reset());
afterAll(() => emu?.close());

const admin = async <T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> => {
  const res = await emu.fetch(`/_vtr/api${path}`, { method, headers: body ? { 'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined });
  return { status: res.status, body: (await res.json()) as T };
};

/** A page view as the agent sends it: a probe on a session from `ip`. */
async function probe(ip: string, ua: string = UA.chromeWindows, fingerprint?: string) {
  const site = (await admin<{ site_key: string }>('GET', '/sites/default')).body;
  const res = await emu.fetch('/_vtr/agent/pageview', {
    method: 'POST',
    headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': ua, 'x-forwarded-for': ip },
    body: JSON.stringify({ site_key: site.site_key, url: 'https://shop.example.com/signup', fingerprint }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { probe_id: string; session_id: string; fingerprint: string };
}

const ids = (r: { rules: Array<{ id: string }> }) => r.rules.map((m) => m.id);

describe('rules: outcomes from the test values (default rules)', () => {
  it('check: a clean residential IP is neutral, no rule matched', async () => {
    const r = await emu.check({ ip: '192.0.2.10' });
    expect(r).toMatchObject({ risk_level: 'normal', outcome: 'neutral', review: false, rules: [] });
  });

  it('check: a datacenter IP asks for review (anonymous rule), neutral', async () => {
    const r = await emu.check({ ip: '198.51.100.7' });
    expect(r).toMatchObject({ risk_level: 'suspicious', outcome: 'neutral', review: true });
    expect(r.rules).toEqual([{ id: 'anonymous', type: 'smart', name: expect.any(String), action: 'review' }]);
  });

  it('check: a Tor exit is blocked (invalid traffic), with review from the anonymous rule', async () => {
    const r = await emu.check({ ip: '203.0.113.7' });
    expect(r).toMatchObject({ risk_level: 'invalid', outcome: 'blocked', review: true });
    expect(ids(r)).toEqual(['anonymous']);
  });

  it('check: a HeadlessChrome probe is blocked by the bot rule, and the session records block', async () => {
    const p = await probe('192.0.2.20', UA.headlessChrome);
    const r = await emu.check({ probe_id: p.probe_id, ip: '192.0.2.20' });
    expect(r).toMatchObject({ outcome: 'blocked', review: false });
    expect(r.rules).toEqual([{ id: 'bot', type: 'smart', name: expect.any(String), action: 'block' }]);
    expect((await emu.sessions.get(p.session_id)).actions).toEqual(['block']);
  });

  it('check: an allowlisted IP is allowed, even when invalid', async () => {
    const site = (await admin<{ site_id: string }>('GET', '/sites/default')).body;
    expect((await admin('PATCH', `/sites/${site.site_id}`, { ip_allowlist: ['203.0.113.0/24'] })).status).toBe(200);
    const r = await emu.check({ ip: '203.0.113.9' });
    expect(r).toMatchObject({ outcome: 'allowed' });
    expect(ids(r)[0]).toBe('allowlist');
  });
});

describe('rules: management and custom rules', () => {
  it('rules: list shows the allowlist, the five smart rules with their defaults, then custom rules', async () => {
    const { body } = await admin<Array<{ rule_id: string; enabled: boolean; action: string; threshold: number | null }>>('GET', `/sites/${emu.site.siteId}/rules`);
    expect(body.map((r) => [r.rule_id, r.enabled, r.action, r.threshold])).toEqual([
      ['allowlist', true, 'allow', null], ['bot', true, 'block', null], ['anonymous', true, 'review', null],
      ['location', false, 'review', null], ['repeat_device', false, 'review', 10], ['emails_per_device', false, 'review', 3],
    ]);
  });

  it('rules: a custom rule over the check\'s subject decides; a bad filter is a 400 with its position', async () => {
    const bad = await admin<{ code: string; position: number }>('POST', `/sites/${emu.site.siteId}/rules`, { name: 'x', filter: 'risks contans x', action: 'block' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'invalid_filter', position: 6 });
    const badAction = await admin<{ field: string }>('POST', `/sites/${emu.site.siteId}/rules`, { name: 'x', filter: 'risks contains vpn', action: 'deny' });
    expect(badAction).toMatchObject({ status: 400, body: { field: 'action' } });
    const made = await admin<{ rule_id: string }>('POST', `/sites/${emu.site.siteId}/rules`, { name: 'Germany', filter: 'country_code = DE', action: 'block_review' });
    expect(made.status).toBe(201);
    // No probe: the subject is a record made from the check (its IP's geo).
    const r = await emu.check({ ip: '203.0.113.7' });
    expect(ids(r)).toEqual(['anonymous', made.body.rule_id]);
    expect(r).toMatchObject({ outcome: 'blocked', review: true });
    expect((await emu.check({ ip: '192.0.2.1' })).rules).toEqual([]);
  });

  it('rules create: a rule without an action is told action is required, a wrong one what it may be', async () => {
    const path = `/sites/${emu.site.siteId}/rules`;
    const actions = 'allow, allow_review, review, block_review, block';
    expect(await admin('POST', path, { filter: 'risks contains vpn' })).toMatchObject({
      status: 400, body: { code: 'invalid_request', message: `action: required, one of ${actions}`, field: 'action' },
    });
    expect(await admin('POST', path, { filter: 'risks contains vpn', action: 'deny' })).toMatchObject({
      status: 400, body: { code: 'invalid_request', message: `action: must be one of ${actions}`, field: 'action' },
    });
    expect(await admin('POST', path, { action: 'block' })).toMatchObject({ status: 400, body: { message: 'filter: required, a string', field: 'filter' } });
  });

  it('rules create: without a name, a long filter names the rule shortened, instead of a 400 about a name never sent', async () => {
    const filter = Array.from({ length: 15 }, () => 'country_code = US').join(' or ');
    const made = await admin<{ name: string; filter: string }>('POST', `/sites/${emu.site.siteId}/rules`, { filter, action: 'review' });
    expect(made.status).toBe(201);
    expect(made.body.filter).toBe(filter);
    expect(made.body.name).toHaveLength(200);
    expect(made.body.name.startsWith(filter.slice(0, 199))).toBe(true);
  });

  it('rules: session_id is null in the subject of a check without a valid probe', async () => {
    const made = await admin<{ rule_id: string }>('POST', `/sites/${emu.site.siteId}/rules`, { name: 'No session', filter: 'session_id is null', action: 'block_review' });
    expect(made.status).toBe(201);
    expect(ids(await emu.check({ email: 'a@example.com' }))).toEqual([made.body.rule_id]);
    expect(ids(await emu.check({ probe_id: 'prb_nope' }))).toEqual([made.body.rule_id]);
    const p = await probe('192.0.2.60');
    expect(ids(await emu.check({ probe_id: p.probe_id }))).toEqual([]);
  });

  it('rules: the subject of a check without a valid probe has every field null beyond its IP fields, geo, risks and risk level', async () => {
    const rule = async (filter: string) => (await admin<{ rule_id: string }>('POST', `/sites/${emu.site.siteId}/rules`, { name: filter, filter, action: 'review' })).body.rule_id;
    const nulls: string[] = [];
    for (const f of ['site_id is null', 'site_name is null', 'created_at is null', 'updated_at is null', 'page_views is null']) nulls.push(await rule(f));
    const geo = await rule('country_code = US and city = "New York" and risk_level = normal');
    const r = await emu.check({ ip: '192.0.2.5' });
    expect(ids(r)).toEqual([...nulls, geo]);
    const p = await probe('192.0.2.61');
    expect(ids(await emu.check({ probe_id: p.probe_id }))).toEqual([geo]);
  });

  it('rules: a custom rule over a probe\'s session sees every risk of the check, excluded_country of another IP included', async () => {
    expect((await admin('PATCH', `/sites/${emu.site.siteId}`, { excluded_countries: ['GB'] })).status).toBe(200);
    const made = await admin<{ rule_id: string }>('POST', `/sites/${emu.site.siteId}/rules`, { name: 'Excluded', filter: 'risks contains excluded_country and risk_level = suspicious', action: 'block' });
    const p = await probe('192.0.2.62');
    const r = await emu.check({ probe_id: p.probe_id, ip: '198.51.100.9' });
    expect(r.risks).toContain('excluded_country');
    expect(ids(r)).toEqual(['anonymous', made.body.rule_id]);
    expect(r.outcome).toBe('blocked');
  });

  it('rules: allow wins over block', async () => {
    await admin('POST', `/sites/${emu.site.siteId}/rules`, { name: 'Trusted US', filter: 'country_code = US', action: 'allow_review' });
    await admin('PATCH', `/sites/${emu.site.siteId}/rules/location`, { enabled: true, action: 'block' });
    const r = await emu.check({ ip: '192.0.2.1' });
    expect(r).toMatchObject({ outcome: 'allowed', review: true });
  });

  it('rules: location matches another country than the site\'s once enabled', async () => {
    expect(ids(await emu.check({ ip: '2001:db8::1' }))).toEqual([]);
    await admin('PATCH', `/sites/${emu.site.siteId}/rules/location`, { enabled: true });
    expect(ids(await emu.check({ ip: '2001:db8::1' }))).toEqual(['location']);
    expect(ids(await emu.check({ ip: '192.0.2.1' }))).toEqual([]);
  });

  it('rules: a stored rule answers with the same field order as a new one (rule_id first)', async () => {
    const fresh = Object.keys(await emu.rules.update('bot', { enabled: false }));
    const stored = Object.keys(await emu.rules.update('bot', { enabled: true }));
    const custom = await emu.rules.create({ filter: 'country_code = FR', action: 'block' });
    const updated = Object.keys(await emu.rules.update(custom.rule_id, { enabled: false }));
    expect(fresh.slice(0, 2)).toEqual(['rule_id', 'site_id']);
    expect(stored).toEqual(fresh);
    expect(updated).toEqual(Object.keys(custom));
    expect((await emu.rules.list()).map((r) => Object.keys(r).slice(0, 2).join())).toEqual(Array(7).fill('rule_id,site_id'));
  });

  it('rules: smart rules refuse a filter, deletion and a bad threshold; the allowlist is the site\'s', async () => {
    const base = `/sites/${emu.site.siteId}/rules`;
    expect((await admin('PATCH', `${base}/bot`, { filter: 'x = 1' })).status).toBe(400);
    expect((await admin('DELETE', `${base}/bot`)).status).toBe(400);
    expect((await admin('PATCH', `${base}/repeat_device`, { threshold: 0 })).status).toBe(400);
    expect((await admin('PATCH', `${base}/bot`, { threshold: 3 })).status).toBe(400);
    for (const [threshold, message] of [[0, 'must be at least 1'], [1e300, 'must be at most 1000000'], [2.5, 'expected a whole number']] as const) {
      expect((await admin('PATCH', `${base}/repeat_device`, { threshold })).body).toEqual({ code: 'invalid_request', message: `threshold: ${message}`, field: 'threshold' });
    }
    expect((await admin('PATCH', `${base}/allowlist`, { enabled: false })).status).toBe(400);
    expect((await admin('GET', `${base}/nope`)).status).toBe(404);
  });
});

describe('rules: actions on the session and the device rules', () => {
  it('session actions: distinct, in the order first taken; a view on actions contains block matches', async () => {
    const p = await probe('198.51.100.30');
    expect((await emu.sessions.get(p.session_id)).actions).toEqual([]);
    await emu.check({ probe_id: p.probe_id, ip: '198.51.100.30' });
    expect((await emu.sessions.get(p.session_id)).actions).toEqual(['review']);
    await admin('POST', `/sites/${emu.site.siteId}/rules`, { name: 'Block disposable', filter: 'risks contains disposable_email', action: 'block' });
    await emu.check({ probe_id: p.probe_id, ip: '198.51.100.30', email: 'x@mailinator.com' });
    await emu.check({ probe_id: p.probe_id, ip: '198.51.100.30' });
    expect((await emu.sessions.get(p.session_id)).actions).toEqual(['review', 'block']);
    const blocked = await emu.sessions.list('actions contains block');
    expect(blocked.map((s) => s.session_id)).toEqual([p.session_id]);
  });

  it('check: the risks and actions a check adds reach the session in one change, so no view sees one without the other', async () => {
    await emu.webhooks.create('http://127.0.0.1:9/hook');
    await emu.views.create({ name: 'Invalid, not blocked', filter: 'risk_level = invalid and actions not contains block', trigger_webhooks: true });
    const p = await probe('192.0.2.50');
    // Another IP than the page view's: the Tor exit's labels and ip_mismatch go onto the session.
    const r = await emu.check({ probe_id: p.probe_id, ip: '203.0.113.50' });
    expect(r.outcome).toBe('blocked');
    const session = await emu.sessions.get(p.session_id);
    expect(session).toMatchObject({ risk_level: 'invalid', actions: ['review', 'block'] });
    expect(await emu.webhooks.events({ sessionId: p.session_id })).toEqual([]);
  });

  it('repeat_device: more than the threshold of checks with one device in the current and previous quarter', async () => {
    await admin('PATCH', `/sites/${emu.site.siteId}/rules/repeat_device`, { enabled: true, threshold: 2, action: 'block' });
    const first = await probe('192.0.2.40');
    const again = await probe('192.0.2.41', UA.chromeWindows, first.fingerprint);
    expect(again.fingerprint).toBe(first.fingerprint);
    expect(ids(await emu.check({ probe_id: first.probe_id }))).toEqual([]);
    expect(ids(await emu.check({ probe_id: again.probe_id }))).toEqual([]);
    const third = await emu.check({ probe_id: again.probe_id });
    expect(ids(third)).toEqual(['repeat_device']);
    expect(third.outcome).toBe('blocked');
    // Another device is counted on its own.
    const other = await probe('192.0.2.42');
    expect(ids(await emu.check({ probe_id: other.probe_id }))).toEqual([]);
  });

  it('emails_per_device: more than the threshold of distinct normalised emails with one device', async () => {
    await admin('PATCH', `/sites/${emu.site.siteId}/rules/emails_per_device`, { enabled: true, threshold: 2 });
    const p = await probe('192.0.2.50');
    expect(ids(await emu.check({ probe_id: p.probe_id, email: 'a@example.com' }))).toEqual([]);
    expect(ids(await emu.check({ probe_id: p.probe_id, email: 'A+x@example.com' }))).toEqual([]); // the same, normalised
    expect(ids(await emu.check({ probe_id: p.probe_id, email: 'b@example.com' }))).toEqual([]);
    const r = await emu.check({ probe_id: p.probe_id, email: 'c@example.com' });
    expect(ids(r)).toEqual(['emails_per_device']);
    expect(r).toMatchObject({ outcome: 'neutral', review: true });
  });
});

describe('rules: state export and import', () => {
  it('state: rules travel in an export; a file from before rules imports with the default smart rules', async () => {
    await admin('PATCH', `/sites/${emu.site.siteId}/rules/location`, { enabled: true });
    const custom = await admin<{ rule_id: string }>('POST', `/sites/${emu.site.siteId}/rules`, { name: 'DE', filter: 'country_code = DE', action: 'block' });
    const doc = (await admin<{ schema_version: number; tables: Record<string, unknown[]> }>('GET', '/state')).body;
    expect(doc.tables.rules).toHaveLength(2);
    await emu.reset();
    expect((await admin('PUT', '/state', doc)).status).toBe(200);
    const back = (await admin<Array<{ rule_id: string; enabled: boolean }>>('GET', `/sites/${emu.site.siteId}/rules`)).body;
    expect(back.find((r) => r.rule_id === 'location')?.enabled).toBe(true);
    expect(back.map((r) => r.rule_id)).toContain(custom.body.rule_id);
    // An export made before rules existed: no rules table, schema version 2.
    const { rules: _dropped, ...older } = doc.tables;
    expect((await admin('PUT', '/state', { ...doc, schema_version: 2, tables: older })).status).toBe(200);
    const defaults = (await admin<Array<{ rule_id: string; enabled: boolean }>>('GET', `/sites/${emu.site.siteId}/rules`)).body;
    expect(defaults.map((r) => [r.rule_id, r.enabled])).toEqual([
      ['allowlist', true], ['bot', true], ['anonymous', true], ['location', false], ['repeat_device', false], ['emails_per_device', false],
    ]);
  });
});

describe('rules: deleting the built-in ones', () => {
  it('rules delete/update: the allowlist points to the command that changes the site\'s ip_allowlist, with its id; a smart rule to --disable', async () => {
    const site = (await admin<{ site_id: string }>('GET', '/sites/default')).body.site_id;
    const allowlist = await admin<{ code: string; message: string }>('DELETE', `/sites/${site}/rules/allowlist`);
    expect(allowlist.status).toBe(400);
    // The command named must run as given: `sites update` needs the site's id.
    expect(allowlist.body.message).toContain(`vtr sites update ${site} --ip-allowlist ""`);
    expect(allowlist.body.message).not.toContain('--disable');
    const change = await admin<{ code: string; message: string }>('PATCH', `/sites/${site}/rules/allowlist`, { enabled: false });
    expect(change.status).toBe(400);
    expect(change.body.message).toContain(`vtr sites update ${site} --ip-allowlist`);
    expect(change.body.message).toContain(`PATCH /_vtr/api/sites/${site}`);
    const smart = await admin<{ message: string }>('DELETE', `/sites/${site}/rules/bot`);
    expect(smart.body.message).toContain('vtr rules update bot --disable');
  });

  it('rules update: an empty change to the allowlist, or one to the values it has, answers 200 with it unchanged, as for every other rule', async () => {
    const site = (await admin<{ site_id: string }>('GET', '/sites/default')).body.site_id;
    const before = (await admin('GET', `/sites/${site}/rules/allowlist`)).body;
    for (const change of [{}, { enabled: true, action: 'allow' }, { name: 'IP allowlist', filter: null, threshold: null }]) {
      const r = await admin('PATCH', `/sites/${site}/rules/allowlist`, change);
      expect(r.status, JSON.stringify(change)).toBe(200);
      expect(r.body).toEqual(before);
    }
    expect((await admin('PATCH', `/sites/${site}/rules/bot`, {})).status).toBe(200);
    for (const change of [{ action: 'block' }, { enabled: true, name: 'Mine' }, { threshold: 5 }, { filter: 'ip = 1.2.3.4' }]) {
      expect((await admin('PATCH', `/sites/${site}/rules/allowlist`, change)).status, JSON.stringify(change)).toBe(400);
    }
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { harness, TIMESTAMP, UA, type Harness } from '../helpers/emulator.js';
import { ENUMS, FIELDS, hasDocumentedType } from '../helpers/service-fields.js';

let h: Harness;
beforeEach(() => {
  h = harness();
});
afterEach(async () => {
  await h.close();
});

describe('GET /api/v1/session/{id}', () => {
  it('session get: answers every Session field, null where unknown', async () => {
    const created = await h.createSession({ ip: '192.0.2.44', url: 'https://shop.example/landing?utm_source=news' });
    const r = await h.api('GET', `/session/${created.session_id}`);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual([...FIELDS].sort());
    for (const f of FIELDS) {
      expect(r.body[f], f).not.toBeUndefined();
      expect(hasDocumentedType(f, r.body[f]), `${f}: ${JSON.stringify(r.body[f])}`).toBe(true);
    }
    expect(r.body).toMatchObject({
      session_id: created.session_id,
      site_id: h.site.site_id,
      site_name: 'Local site',
      page_views: 1,
      duration: 0,
      entry_hostname: 'shop.example',
      entry_path: '/landing',
      channel: 'other',
      source: 'news',
      ip: '192.0.2.44',
      country_code: 'US',
      city: 'New York',
      // no referrer, click id or campaign: unknown
      referrer: null,
      referrer_domain: null,
      source_id: null,
      source_campaign: null,
      source_session_id: null,
      value: null,
    });
    expect(r.body.actions).toEqual([]);
    expect(r.body.custom_events).toEqual([]);
  });

  it('session get: timestamps are UTC with microseconds and no zone', async () => {
    const s = await h.createSession();
    const r = await h.api('GET', `/session/${s.session_id}`);
    expect(r.body.created_at).toMatch(TIMESTAMP);
    expect(r.body.updated_at).toMatch(TIMESTAMP);
    // The wall-clock reading agrees with now (as UTC) within a generous window.
    const asUtc = Date.parse(`${r.body.created_at.slice(0, 23)}Z`);
    expect(Math.abs(asUtc - Date.now())).toBeLessThan(10 * 60_000);
  });

  it('session get: enumerations are the documented values', async () => {
    const specs = [
      {},
      { ip: '203.0.113.9', user_agent: UA.iphone, url: 'https://a.test/?gclid=x1' },
      { ip: '198.51.100.3', user_agent: UA.googlebot, referrer: 'https://ref.example/' },
      { page_views: 4, duration: 120, user_agent: UA.ipad },
    ];
    for (const spec of specs) {
      const s = await h.createSession(spec);
      const { body } = await h.api('GET', `/session/${s.session_id}`);
      expect(ENUMS.risk_level).toContain(body.risk_level);
      expect(ENUMS.engagement_level).toContain(body.engagement_level);
      expect(ENUMS.channel).toContain(body.channel);
      expect([...ENUMS.device_type, null]).toContain(body.device_type);
      expect(typeof body.returned).toBe('boolean');
      expect(Number.isInteger(body.duration)).toBe(true);
    }
  });

  it('session get: a missing bearer token is a 401', async () => {
    const s = await h.createSession();
    const r = await h.api('GET', `/session/${s.session_id}`, { token: null });
    expect(r.status).toBe(401);
    expect(r.body.code).toBe('unauthorized');
    expect(r.body.message).toEqual(expect.any(String));
  });

  it('session get: an unknown token is a 401', async () => {
    const s = await h.createSession();
    const r = await h.api('GET', `/session/${s.session_id}`, { token: 'at_test_nope' });
    expect(r.status).toBe(401);
    expect(r.body.code).toBe('unauthorized');
  });

  it('session get: an unknown secret key is a 401 saying so (a secret key is a way in here); a site key is named', async () => {
    const s = await h.createSession();
    const unknown = await h.api('GET', `/session/${s.session_id}`, { token: 'sk_test_nope' });
    expect(unknown).toMatchObject({ status: 401, body: { code: 'unauthorized' } });
    expect(unknown.body.message).toMatch(/the access token or secret key is unknown, revoked or rotated/);
    const siteKey = await h.api('GET', `/session/${s.session_id}`, { token: h.site.site_key });
    expect(siteKey.status).toBe(401);
    expect(siteKey.body.message).toMatch(/^that is a site key .*send an access token \(at_test_…\) or the site's secret key \(sk_test_…\) here/);
  });

  it('session get: a malformed Authorization header is a 401', async () => {
    const s = await h.createSession();
    for (const auth of ['Basic abc', 'Bearer', 'Bearer a b', 'bearer']) {
      const res = await h.request(`/api/v1/session/${s.session_id}`, { headers: { authorization: auth } });
      expect(res.status, auth).toBe(401);
    }
  });

  it('session get: a revoked token is a 401', async () => {
    const s = await h.createSession();
    const t = await h.admin('POST', `/sites/${h.site.site_id}/tokens`);
    expect((await h.api('GET', `/session/${s.session_id}`, { token: t.body.token })).status).toBe(200);
    expect((await h.admin('DELETE', `/tokens/${t.body.token}`)).status).toBe(200);
    const r = await h.api('GET', `/session/${s.session_id}`, { token: t.body.token });
    expect(r.status).toBe(401);
    expect(r.body.code).toBe('unauthorized');
    // the site's other token still works
    expect((await h.api('GET', `/session/${s.session_id}`)).status).toBe(200);
  });

  it("session get: another site's session is a 404", async () => {
    const other = await h.admin('POST', '/sites', { name: 'Other' });
    const otherToken = (await h.admin('POST', `/sites/${other.body.site_id}/tokens`)).body.token;
    const theirs = await h.createSession({}, other.body.site_id);
    const r = await h.api('GET', `/session/${theirs.session_id}`);
    expect(r.status).toBe(404);
    expect(r.body.code).toBe('not_found');
    // same answer as a session that does not exist: nothing revealed
    const unknown = await h.api('GET', '/session/ses_doesnotexist');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('not_found');
    expect((await h.api('GET', `/session/${theirs.session_id}`, { token: otherToken })).status).toBe(200);
  });

  it('session get: an unknown session is a 404', async () => {
    const r = await h.api('GET', '/session/ses_00000000000000000000');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ code: 'not_found', message: expect.any(String) });
  });
});

describe('POST /api/v1/session/{id}/event', () => {
  it('session event: answers {"success": true} and appends in order, keeping repeats; each read after one sees it', async () => {
    const s = await h.createSession();
    const names: string[] = [];
    for (const name of ['signup', 'add_to_cart', 'signup']) {
      const r = await h.api('POST', `/session/${s.session_id}/event`, { body: { name } });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ success: true });
      names.push(name);
      // Read twice: the second answer is the cached session's text, which must follow each change.
      expect((await h.api('GET', `/session/${s.session_id}`)).body.custom_events).toEqual(names);
      expect((await h.api('GET', `/session/${s.session_id}`)).body.custom_events).toEqual(names);
    }
  });

  it('session event: changes updated_at but not created_at', async () => {
    const s = await h.createSession();
    await new Promise((r) => setTimeout(r, 5));
    await h.api('POST', `/session/${s.session_id}/event`, { body: { name: 'x' } });
    const got = (await h.api('GET', `/session/${s.session_id}`)).body;
    expect(got.created_at).toBe(s.created_at);
    expect(got.updated_at).toMatch(TIMESTAMP);
    expect(got.updated_at > s.updated_at).toBe(true);
  });

  it('session event: a conversion event makes engagement_level converted', async () => {
    const s = await h.createSession();
    expect(s.engagement_level).toBe('bounced');
    await h.api('POST', `/session/${s.session_id}/event`, { body: { name: 'newsletter' } });
    expect((await h.api('GET', `/session/${s.session_id}`)).body.engagement_level).toBe('bounced');
    await h.api('POST', `/session/${s.session_id}/event`, { body: { name: 'conversion' } });
    expect((await h.api('GET', `/session/${s.session_id}`)).body.engagement_level).toBe('converted');
  });

  it("session event: conversion names come from the site's conversion_events", async () => {
    const upd = await h.admin('PATCH', `/sites/${h.site.site_id}`, { conversion_events: ['purchase'] });
    expect(upd.status).toBe(200);
    const s = await h.createSession({ page_views: 2, duration: 20 });
    expect(s.engagement_level).toBe('normal');
    await h.api('POST', `/session/${s.session_id}/event`, { body: { name: 'conversion' } });
    expect((await h.api('GET', `/session/${s.session_id}`)).body.engagement_level).toBe('normal');
    await h.api('POST', `/session/${s.session_id}/event`, { body: { name: 'purchase' } });
    expect((await h.api('GET', `/session/${s.session_id}`)).body.engagement_level).toBe('converted');
  });

  it('session event: name missing, empty, too long or not a string is a 400 naming name', async () => {
    const s = await h.createSession();
    const bodies = [{}, { name: '' }, { name: 'x'.repeat(101) }, { name: 42 }, { name: null }, { name: ['a'] }];
    for (const body of bodies) {
      const r = await h.api('POST', `/session/${s.session_id}/event`, { body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.code).toBe('invalid_request');
      expect(r.body.message).toMatch(/\bname\b/);
    }
    // a 100-character name is fine
    expect((await h.api('POST', `/session/${s.session_id}/event`, { body: { name: 'x'.repeat(100) } })).status).toBe(200);
    expect((await h.api('GET', `/session/${s.session_id}`)).body.custom_events).toEqual(['x'.repeat(100)]);
  });

  it('session event: a name of only white space is a 400 naming name; spaces around a name are dropped, so " conversion " converts', async () => {
    const s = await h.createSession();
    for (const name of [' ', '   ', '\t\n']) {
      const r = await h.api('POST', `/session/${s.session_id}/event`, { body: { name } });
      expect(r.status, JSON.stringify(name)).toBe(400);
      expect(r.body).toMatchObject({ code: 'invalid_request', field: 'name' });
      expect(r.body.message).toContain('blank');
    }
    expect((await h.api('POST', `/session/${s.session_id}/event`, { body: { name: ' conversion ' } })).status).toBe(200);
    // The limit counts the name without its spaces.
    expect((await h.api('POST', `/session/${s.session_id}/event`, { body: { name: ` ${'x'.repeat(100)}\n` } })).status).toBe(200);
    expect((await h.api('GET', `/session/${s.session_id}`)).body).toMatchObject({ custom_events: ['conversion', 'x'.repeat(100)], engagement_level: 'converted' });
  });

  it("session event: a value that would make the session's value overflow is a 400 naming value, and the session keeps its value", async () => {
    const s = await h.createSession();
    expect((await h.api('POST', `/session/${s.session_id}/event`, { body: { name: 'sale', value: 1e308 } })).status).toBe(200);
    const r = await h.api('POST', `/session/${s.session_id}/event`, { body: { name: 'sale', value: 1e308 } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'invalid_request', field: 'value' });
    const got = (await h.api('GET', `/session/${s.session_id}`)).body;
    expect(got.value).toBe(1e308);
    expect(got.custom_events).toEqual(['sale']);
  });

  it('session event: a null value is taken as no value, as the agent and the visitor check take null; a string value is a 400 naming value', async () => {
    const s = await h.createSession();
    const r = await h.api('POST', `/session/${s.session_id}/event`, { body: { name: 'signup', value: null } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true });
    const got = (await h.api('GET', `/session/${s.session_id}`)).body;
    expect(got.custom_events).toEqual(['signup']);
    expect(got.value).toBeNull();
    const bad = await h.api('POST', `/session/${s.session_id}/event`, { body: { name: 'sale', value: '12.50' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'invalid_request', field: 'value' });
  });

  it('session event: needs the bearer token of the session site', async () => {
    const s = await h.createSession();
    expect((await h.api('POST', `/session/${s.session_id}/event`, { body: { name: 'a' }, token: null })).status).toBe(401);
    expect((await h.api('POST', `/session/${s.session_id}/event`, { body: { name: 'a' }, token: 'at_test_x' })).status).toBe(401);
    const other = await h.admin('POST', '/sites', { name: 'Other' });
    const otherToken = (await h.admin('POST', `/sites/${other.body.site_id}/tokens`)).body.token;
    const r = await h.api('POST', `/session/${s.session_id}/event`, { body: { name: 'a' }, token: otherToken });
    expect(r.status).toBe(404);
    expect((await h.api('POST', '/session/ses_nope/event', { body: { name: 'a' } })).status).toBe(404);
    expect((await h.api('GET', `/session/${s.session_id}`)).body.custom_events).toEqual([]);
  });
});

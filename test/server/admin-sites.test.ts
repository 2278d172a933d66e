import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { harness, TIMESTAMP, type Harness } from '../helpers/emulator.js';

let h: Harness;
beforeEach(() => {
  h = harness();
});
afterEach(async () => {
  await h.close();
});

const SITE_FIELDS = ['site_id', 'name', 'plan', 'country', 'owner_email', 'site_key', 'secret_key', 'conversion_events',
  'bounce_seconds', 'excluded_countries', 'ip_allowlist', 'created_at'];

describe('management API: sites', () => {
  it('sites list: the first start made the default site', async () => {
    const r = await h.admin('GET', '/sites');
    expect(r.status).toBe(200);
    expect(r.body).toHaveLength(1);
    expect(r.body[0]).toMatchObject({ site_id: h.site.site_id, name: 'Local site', plan: 'paid', country: 'US', conversion_events: ['conversion'], bounce_seconds: 10 });
    for (const f of SITE_FIELDS) expect(r.body[0], f).toHaveProperty(f);
    expect(r.body[0].created_at).toMatch(TIMESTAMP);
    expect((await h.admin('GET', '/sites/default')).body.site_id).toBe(h.site.site_id);
  });

  it('sites create: makes a site with new keys and the given settings', async () => {
    const body = {
      name: 'Shop', plan: 'free', country: 'gb', owner_email: 'me@example.com', conversion_events: ['purchase', 'signup'],
      bounce_seconds: 5, excluded_countries: ['ru', 'CN'], ip_allowlist: ['10.0.0.0/8', '192.0.2.7', '2001:db8::/48'],
    };
    const r = await h.admin('POST', '/sites', body);
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ ...body, country: 'GB', excluded_countries: ['RU', 'CN'] });
    expect(r.body.site_id).toMatch(/^site_/);
    expect(r.body.site_key).toMatch(/^pk_test_/);
    expect(r.body.secret_key).toMatch(/^sk_test_/);
    expect(r.body.site_key).not.toBe(h.site.site_key);
    expect((await h.admin('GET', `/sites/${r.body.site_id}`)).body).toEqual(r.body);
    expect((await h.admin('GET', '/sites')).body).toHaveLength(2);
  });

  it('sites create: an empty body takes the defaults', async () => {
    const r = await h.admin('POST', '/sites');
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ plan: 'paid', country: 'US', conversion_events: ['conversion'], bounce_seconds: 10, excluded_countries: [], ip_allowlist: [] });
    // an explicit null means "no country", as it does on update
    const none = await h.admin('POST', '/sites', { country: null, owner_email: null });
    expect(none.status).toBe(201);
    expect(none.body).toMatchObject({ country: null, owner_email: null });
  });

  it("sites create/update: conversion_events are custom event names as events take them: spaces around one dropped, a blank one a 400 naming conversion_events", async () => {
    const created = await h.admin('POST', '/sites', { conversion_events: [' purchase ', 'signup\n'] });
    expect(created.status).toBe(201);
    expect(created.body.conversion_events).toEqual(['purchase', 'signup']);
    for (const [method, path] of [['POST', '/sites'], ['PATCH', `/sites/${created.body.site_id}`]] as const) {
      const r = await h.admin(method, path, { conversion_events: ['purchase', '  '] });
      expect(r.status, method).toBe(400);
      expect(r.body).toMatchObject({ code: 'invalid_request' });
      expect(r.body.message, method).toMatch(/conversion_events.*blank/);
    }
  });

  it('sites create: a bad field is a 400 that names it', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ plan: 'gold' }, 'plan'],
      [{ country: 'USA' }, 'country'],
      [{ country: 12 }, 'country'],
      [{ country: 'QQ' }, 'country'],
      [{ excluded_countries: ['RU', 'XX'] }, 'excluded_countries'],
      [{ owner_email: 'not-an-email' }, 'owner_email'],
      [{ conversion_events: 'purchase' }, 'conversion_events'],
      [{ conversion_events: [''] }, 'conversion_events'],
      [{ bounce_seconds: -1 }, 'bounce_seconds'],
      [{ bounce_seconds: 2.5 }, 'bounce_seconds'],
      [{ bounce_seconds: '10' }, 'bounce_seconds'],
      [{ excluded_countries: ['Germany'] }, 'excluded_countries'],
      [{ ip_allowlist: ['10.0.0.0/99'] }, 'ip_allowlist'],
      [{ ip_allowlist: ['example.com'] }, 'ip_allowlist'],
      // shorthands an IP parser reads as another address: 1.2.0.3, 8.1.1.1, 127.0.0.1
      [{ ip_allowlist: ['1.2.3'] }, 'ip_allowlist'],
      [{ ip_allowlist: ['010.1.1.1'] }, 'ip_allowlist'],
      [{ ip_allowlist: ['0x7f.1/32'] }, 'ip_allowlist'],
      [{ name: '' }, 'name'],
      [{ site_key: 'pk_test_mine' }, 'site_key'],
    ];
    for (const [body, field] of cases) {
      const r = await h.admin('POST', '/sites', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.code).toBe('invalid_request');
      expect(r.body.message, JSON.stringify(body)).toContain(field);
    }
    const entry = await h.admin('POST', '/sites', { ip_allowlist: ['10.0.0.0/8', '1.2.3'] });
    expect(entry.body).toEqual({ code: 'invalid_request', message: 'ip_allowlist.1: "1.2.3" is not an IP address or CIDR range', field: 'ip_allowlist.1' });
    expect((await h.admin('GET', '/sites')).body).toHaveLength(1);
  });

  it('sites update: changes only the given fields', async () => {
    const r = await h.admin('PATCH', `/sites/${h.site.site_id}`, { plan: 'free', excluded_countries: ['de'], owner_email: null });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ plan: 'free', excluded_countries: ['DE'], owner_email: null, name: 'Local site', country: 'US', site_key: h.site.site_key });
    expect((await h.admin('GET', `/sites/${h.site.site_id}`)).body).toEqual(r.body);
    const bad = await h.admin('PATCH', `/sites/${h.site.site_id}`, { plan: 'enterprise' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('plan');
    expect((await h.admin('PATCH', '/sites/site_nope', { plan: 'free' })).status).toBe(404);
  });

  it('sites delete: removes a site and its sessions; the last site stays', async () => {
    const other = (await h.admin('POST', '/sites', { name: 'Temp' })).body;
    const s = await h.createSession({}, other.site_id);
    const del = await h.admin('DELETE', `/sites/${other.site_id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ deleted: true, site_id: other.site_id });
    expect((await h.admin('GET', `/sites/${other.site_id}`)).status).toBe(404);
    expect((await h.admin('GET', `/sessions/${s.session_id}`)).status).toBe(404);
    expect((await h.admin('DELETE', `/sites/${other.site_id}`)).status).toBe(404);
    const last = await h.admin('DELETE', `/sites/${h.site.site_id}`);
    expect(last.status).toBe(409);
    expect(last.body.code).toBe('conflict');
    expect(last.body.message).toMatch(/create another first \(`vtr sites create`\)/);
  });

  it('sites delete: deleting the default site makes the oldest site left the default, marked so', async () => {
    const first = (await h.admin('POST', '/sites', { name: 'First after' })).body;
    await h.admin('POST', '/sites', { name: 'Second after' });
    expect((await h.admin('DELETE', `/sites/${h.site.site_id}`)).status).toBe(200);
    const def = (await h.admin('GET', '/sites/default')).body;
    expect(def).toMatchObject({ site_id: first.site_id, is_default: true });
    const sites = (await h.admin('GET', '/sites')).body as Array<{ site_id: string; is_default: boolean }>;
    expect(sites.filter((x) => x.is_default).map((x) => x.site_id)).toEqual([first.site_id]);
  });

  it('sites show: an unknown site is a 404', async () => {
    const r = await h.admin('GET', '/sites/site_unknown');
    expect(r.status).toBe(404);
    expect(r.body.code).toBe('not_found');
  });
});

describe('management API: keys', () => {
  it('keys show: answers the site key and secret key', async () => {
    const r = await h.admin('GET', `/sites/${h.site.site_id}/keys`);
    expect(r.body).toEqual({ site_id: h.site.site_id, site_key: h.site.site_key, secret_key: h.site.secret_key });
  });

  it('keys rotate: new keys; the old ones no longer resolve', async () => {
    const { sites } = h.emulator.deps;
    expect(sites.bySecretKey(h.site.secret_key)?.site_id).toBe(h.site.site_id);
    expect(sites.bySiteKey(h.site.site_key)?.site_id).toBe(h.site.site_id);
    const r = await h.admin('POST', `/sites/${h.site.site_id}/keys/rotate`);
    expect(r.status).toBe(200);
    expect(r.body.site_key).toMatch(/^pk_test_/);
    expect(r.body.secret_key).not.toBe(h.site.secret_key);
    expect(r.body.site_key).not.toBe(h.site.site_key);
    expect(sites.bySecretKey(h.site.secret_key)).toBeNull();
    expect(sites.bySiteKey(h.site.site_key)).toBeNull();
    expect(sites.bySecretKey(r.body.secret_key)?.site_id).toBe(h.site.site_id);
    expect(sites.bySiteKey(r.body.site_key)?.site_id).toBe(h.site.site_id);
    expect((await h.admin('GET', `/sites/${h.site.site_id}/keys`)).body).toEqual(r.body);
    // access tokens are not keys: they keep working
    const s = await h.createSession();
    expect((await h.api('GET', `/session/${s.session_id}`)).status).toBe(200);
    expect((await h.admin('POST', '/sites/site_nope/keys/rotate')).status).toBe(404);
  });

  it('keys rotate: the old secret key is a 401 on the visitor-check endpoint', async () => {
    const old = h.site.secret_key;
    const fresh = (await h.admin('POST', `/sites/${h.site.site_id}/keys/rotate`)).body.secret_key;
    const oldCheck = await h.json('POST', '/api/v1/event', { body: { secret_key: old, email: 'a@example.com' } });
    expect(oldCheck.status).toBe(401);
    expect(oldCheck.body.code).toBe('unauthorized');
    const newCheck = await h.json('POST', '/api/v1/event', { body: { secret_key: fresh, email: 'a@example.com' } });
    expect(newCheck.status).toBe(200);
  });

  it("keys rotate: the old site key is a 401 on the agent's page-view endpoint", async () => {
    const old = h.site.site_key;
    const fresh = (await h.admin('POST', `/sites/${h.site.site_id}/keys/rotate`)).body.site_key;
    const pv = (key: string) => h.json('POST', '/_vtr/agent/pageview', { body: { site_key: key, url: 'https://shop.test/' } });
    const oldView = await pv(old);
    expect(oldView.status).toBe(401);
    expect(oldView.body.code).toBe('unauthorized');
    const newView = await pv(fresh);
    expect(newView.status).toBe(200);
    expect(newView.body.probe_id).toMatch(/^prb_/);
  });
});

describe('management API: access tokens', () => {
  it('tokens: create, list and revoke', async () => {
    const created = await h.admin('POST', `/sites/${h.site.site_id}/tokens`);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ site_id: h.site.site_id, revoked_at: null });
    expect(created.body.token).toMatch(/^at_test_/);
    expect(created.body.created_at).toMatch(TIMESTAMP);

    const list = (await h.admin('GET', `/sites/${h.site.site_id}/tokens`)).body as Array<{ token: string }>;
    expect(list.map((t) => t.token)).toEqual([h.token, created.body.token]);

    const revoked = await h.admin('DELETE', `/tokens/${created.body.token}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.token).toBe(created.body.token);
    expect(revoked.body.revoked_at).toMatch(TIMESTAMP);
    const again = (await h.admin('GET', `/sites/${h.site.site_id}/tokens`)).body as Array<{ token: string; revoked_at: string | null }>;
    expect(again.find((t) => t.token === created.body.token)?.revoked_at).toBe(revoked.body.revoked_at);
    expect(again.find((t) => t.token === h.token)?.revoked_at).toBeNull();
  });

  it("tokens list: all tokens, or one site's", async () => {
    const other = (await h.admin('POST', '/sites', { name: 'B' })).body;
    const t = (await h.admin('POST', `/sites/${other.site_id}/tokens`)).body;
    const all = (await h.admin('GET', '/tokens')).body as Array<{ token: string; site_id: string }>;
    expect(all.map((x) => x.token).sort()).toEqual([h.token, t.token].sort());
    expect((await h.admin('GET', `/sites/${other.site_id}/tokens`)).body).toEqual([t]);
  });

  it('tokens: an unknown site or token is a 404', async () => {
    expect((await h.admin('POST', '/sites/site_nope/tokens')).status).toBe(404);
    expect((await h.admin('GET', '/sites/site_nope/tokens')).status).toBe(404);
    expect((await h.admin('DELETE', '/tokens/at_test_nope')).status).toBe(404);
  });
});

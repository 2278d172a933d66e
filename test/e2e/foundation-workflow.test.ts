// The foundation end to end: sites, tokens and sessions through the CLI, read over HTTP, kept across a restart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { startServer, type ServerProcess } from '../helpers/vtr-process.js';
import { http, removeScratchDirs, scratchDir, vtr, vtrJson } from '../helpers/foundation-e2e.js';
import { TIMESTAMP } from '../helpers/service-fields.js';

const HEADLESS = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36';

let db: string;
let server: ServerProcess;
/** The default site's credentials from the first start (a restart does not print them again). */
let defaultSite: NonNullable<ServerProcess['site']>;
beforeAll(async () => {
  db = join(scratchDir(), 'vtr.db');
  server = await startServer(['--db', db]);
  defaultSite = server.site!;
});
afterAll(async () => {
  await server?.stop();
  removeScratchDirs();
});

// Each test makes what it needs (its own site, token and sessions): the tests run in any order.
const SHOP = ['--name', 'Shop', '--plan', 'free', '--country', 'gb', '--owner-email', 'shop@example.com', '--excluded-countries', 'de'];
const newShop = (): Promise<{ site_id: string; secret_key: string }> => vtrJson(['sites', 'create', ...SHOP], server.env);
const newToken = async (siteId: string): Promise<string> => (await vtrJson(['tokens', 'create', '--site', siteId], server.env)).token;
/** A Tor visit, a paid click with three page views, and a headless bot with two custom events. */
async function newSessions(siteId: string) {
  const site = ['--site', siteId];
  return {
    tor: await vtrJson<{ session_id: string }>(['sessions', 'create', ...site, '--ip', '203.0.113.7'], server.env),
    paid: await vtrJson<{ session_id: string }>(['sessions', 'create', ...site, '--url', 'https://shop.test/?gclid=abc&utm_campaign=spring', '--page-views', '3', '--duration', '90'], server.env),
    bot: await vtrJson<{ session_id: string }>(['sessions', 'create', ...site, '--user-agent', HEADLESS, '--event', 'signup', 'newsletter'], server.env),
  };
}
/** A shop with a token and its three sessions. */
async function shopWithSessions() {
  const shop = await newShop();
  return { shop, token: await newToken(shop.site_id), ...(await newSessions(shop.site_id)) };
}

const getSession = (id: string, token: string) => http(`${server.origin}/api/v1/session/${id}`, { headers: { authorization: `Bearer ${token}` } });

describe('foundation workflow (built binary, file database)', { timeout: 120_000 }, () => {
  it('sites create: --json prints the new site', async () => {
    const site = await vtrJson(['sites', 'create', ...SHOP], server.env);
    expect(site).toMatchObject({ name: 'Shop', plan: 'free', country: 'GB', owner_email: 'shop@example.com', excluded_countries: ['DE'], conversion_events: ['conversion'] });
    expect(site.created_at).toMatch(TIMESTAMP);
    const list = await vtrJson<Array<{ site_id: string }>>(['sites', 'list'], server.env);
    // Oldest first: the default site, then (other tests' sites, then) this one.
    expect(list[0].site_id).toBe(defaultSite.site_id);
    expect(list.at(-1)!.site_id).toBe(site.site_id);
  });

  it('tokens create: makes a token for the chosen site', async () => {
    const shop = await newShop();
    const t = await vtrJson(['tokens', 'create', '--site', shop.site_id], server.env);
    expect(t).toMatchObject({ site_id: shop.site_id, revoked_at: null, token: expect.stringMatching(/^at_test_/) });
    const list = await vtrJson<Array<{ token: string }>>(['tokens', 'list', '--site', shop.site_id], server.env);
    expect(list.map((x) => x.token)).toEqual([t.token]);
  });

  it('sessions create: derived fields from the flags', async () => {
    const shop = await newShop();
    const state = { shop } as { shop: typeof shop; tor: { session_id: string }; paid: { session_id: string }; bot: { session_id: string } };
    const site = ['--site', state.shop.site_id];
    state.tor = await vtrJson(['sessions', 'create', ...site, '--ip', '203.0.113.7'], server.env);
    expect(state.tor).toMatchObject({ site_id: state.shop.site_id, country_code: 'DE', risk_level: 'invalid' });
    expect(state.tor.session_id).toMatch(/^ses_/);
    expect((state.tor as unknown as { risks: string[] }).risks).toEqual(expect.arrayContaining(['tor', 'anonymous', 'excluded_country']));
    state.paid = await vtrJson(['sessions', 'create', ...site, '--url', 'https://shop.test/?gclid=abc&utm_campaign=spring', '--page-views', '3', '--duration', '90'], server.env);
    expect(state.paid).toMatchObject({ channel: 'paid', source: 'google', source_id: 'abc', source_campaign: 'spring', page_views: 3, duration: 90, engagement_level: 'engaged', risk_level: 'normal' });
    state.bot = await vtrJson(['sessions', 'create', ...site, '--user-agent', HEADLESS, '--event', 'signup', 'newsletter'], server.env);
    expect(state.bot).toMatchObject({ risk_level: 'invalid', risks: ['bot'], custom_events: ['signup', 'newsletter'] });
  });

  it('session get: over HTTP with the token, and through the CLI', async () => {
    const state = await shopWithSessions();
    const r = await getSession(state.paid.session_id, state.token);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ session_id: state.paid.session_id, site_name: 'Shop', channel: 'paid' });
    expect(r.body.created_at).toMatch(TIMESTAMP);
    // the default site's token cannot see the shop's session
    expect((await getSession(state.paid.session_id, defaultSite.access_token)).status).toBe(404);
    const viaCli = await vtrJson(['session', 'get', state.paid.session_id, '--token', state.token], server.env);
    expect(viaCli).toEqual(r.body);
    // --site picks that site's token when none is given
    expect(await vtrJson(['session', 'get', state.paid.session_id, '--site', state.shop.site_id], server.env)).toEqual(r.body);
    const human = await vtr(['session', 'get', state.paid.session_id, '--token', state.token], server.env);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain(state.paid.session_id);
    expect(human.stdout).toMatch(/google/);
  });

  it('session event: adds custom events in order; conversion converts', async () => {
    const state = await shopWithSessions();
    const env = { ...server.env, VTR_ACCESS_TOKEN: state.token };
    expect(await vtrJson(['session', 'event', state.paid.session_id, 'signup'], env)).toEqual({ success: true });
    const human = await vtr(['session', 'event', state.paid.session_id, 'conversion'], env);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/engagement_level:\s+converted/);
    expect(await vtrJson(['session', 'event', state.paid.session_id, 'signup'], env)).toEqual({ success: true });
    const r = await getSession(state.paid.session_id, state.token);
    expect(r.body.custom_events).toEqual(['signup', 'conversion', 'signup']);
    expect(r.body.engagement_level).toBe('converted');
    expect(r.body.updated_at > r.body.created_at).toBe(true);
    const tooLong = await vtr(['session', 'event', state.paid.session_id, 'x'.repeat(101)], env);
    expect(tooLong.code).toBe(2);
    expect(tooLong.stderr).toMatch(/name/);
  });

  it('sessions list: --where filters, --json prints an array', async () => {
    const state = await shopWithSessions();
    await vtrJson(['session', 'event', state.paid.session_id, 'conversion', '--token', state.token], server.env);
    const site = ['--site', state.shop.site_id];
    const invalid = await vtrJson<Array<{ session_id: string }>>(['sessions', 'list', ...site, '--where', 'risk_level = invalid'], server.env);
    expect(invalid.map((s) => s.session_id)).toEqual([state.bot.session_id, state.tor.session_id]);
    const conv = await vtrJson<Array<{ session_id: string }>>(['sessions', 'list', ...site, '--where', 'custom_events contains conversion and channel = paid'], server.env);
    expect(conv.map((s) => s.session_id)).toEqual([state.paid.session_id]);
    const none = await vtrJson<unknown[]>(['sessions', 'list', '--where', 'country_code = FR'], server.env);
    expect(none).toEqual([]);
    const bad = await vtr(['sessions', 'list', '--where', 'risk_level = nope', '--json'], server.env);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toMatch(/--where/);
    expect(bad.stderr).toMatch(/\^/);
  });

  it('restart: SIGTERM exits 0 and everything is still there afterwards', async () => {
    const state = await shopWithSessions();
    const env = { ...server.env, VTR_ACCESS_TOKEN: state.token };
    for (const name of ['signup', 'conversion', 'signup']) await vtrJson(['session', 'event', state.paid.session_id, name], env);
    expect(await server.stop('SIGTERM')).toBe(0);
    server = await startServer(['--db', db]);
    expect(server.site).toBeNull();
    const r = await getSession(state.paid.session_id, state.token);
    expect(r.status).toBe(200);
    expect(r.body.custom_events).toEqual(['signup', 'conversion', 'signup']);
    const sites = await vtrJson<Array<{ site_id: string; name: string }>>(['sites', 'list'], server.env);
    expect(sites[0].name).toBe('Local site');
    expect(sites.find((s) => s.site_id === state.shop.site_id)?.name).toBe('Shop');
    const all = await vtrJson<Array<{ session_id: string }>>(['sessions', 'list', '--site', state.shop.site_id], server.env);
    expect(all.map((s) => s.session_id).sort()).toEqual([state.tor.session_id, state.paid.session_id, state.bot.session_id].sort());
    const tokens = await vtrJson<Array<{ token: string }>>(['tokens', 'list', '--site', state.shop.site_id], server.env);
    expect(tokens.map((t) => t.token)).toEqual([state.token]);
  });

  it('tokens revoke: the token answers 401 from then on', async () => {
    const state = await shopWithSessions();
    const extra = await vtrJson(['tokens', 'create', '--site', state.shop.site_id], server.env);
    expect((await getSession(state.tor.session_id, extra.token)).status).toBe(200);
    const revoked = await vtrJson(['tokens', 'revoke', extra.token], server.env);
    expect(revoked.revoked_at).toMatch(TIMESTAMP);
    expect((await getSession(state.tor.session_id, extra.token)).status).toBe(401);
    const cli = await vtr(['session', 'get', state.tor.session_id, '--token', extra.token], server.env);
    expect(cli.code).toBe(1);
    expect(cli.stderr).toMatch(/401/);
  });

  it('keys rotate: the old secret key fails with 401', async () => {
    const state = await shopWithSessions();
    const before = await vtrJson(['keys', 'show', '--site', state.shop.site_id], server.env);
    expect(before.secret_key).toBe(state.shop.secret_key);
    const after = await vtrJson(['keys', 'rotate', '--site', state.shop.site_id, '--yes'], server.env);
    expect(after.site_id).toBe(state.shop.site_id);
    expect(after.secret_key).not.toBe(before.secret_key);
    expect(after.site_key).not.toBe(before.site_key);
    const check = (secret: string) => http(`${server.baseUrl}/event`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ secret_key: secret, ip: '192.0.2.1' }) });
    const old = await check(before.secret_key);
    expect(old.status).toBe(401);
    expect(old.body.code).toBe('unauthorized');
    expect((await check(after.secret_key)).status).toBe(200);
  });
});

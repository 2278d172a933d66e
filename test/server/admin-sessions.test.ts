import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Session } from '../../src/domain/session.js';
import { harness, UA, type Harness } from '../helpers/emulator.js';

let h: Harness;
beforeEach(() => {
  h = harness();
});
afterEach(async () => {
  await h.close();
});

describe('management API: sessions create (derived fields)', () => {
  it('sessions create: click ids make paid sessions with their source', async () => {
    const cases: Array<[string, string, string]> = [
      ['gclid', 'google', 'paid_search'], ['gbraid', 'google', 'paid_search'], ['wbraid', 'google', 'paid_search'],
      ['fbclid', 'meta', 'paid_social'], ['msclkid', 'microsoft', 'paid_search'], ['ttclid', 'tiktok', 'paid_social'],
      ['li_fat_id', 'linkedin', 'paid_social'],
    ];
    for (const [param, source, group] of cases) {
      const s = await h.createSession({ url: `https://shop.test/p?${param}=CLICK1&utm_medium=cpc&utm_campaign=winter` });
      expect(s, param).toMatchObject({ channel: 'paid', source, source_id: 'CLICK1', source_subtype: param, source_group: group, source_medium: 'cpc', source_campaign: 'winter' });
    }
  });

  it('sessions create: utm_source makes other; utm_* fill the source fields', async () => {
    const s = await h.createSession({ url: 'https://shop.test/?utm_source=newsletter&utm_medium=email&utm_campaign=c1&utm_content=hero&utm_term=shoes', referrer: 'https://mail.example/' });
    expect(s).toMatchObject({ channel: 'other', source: 'newsletter', source_medium: 'email', source_campaign: 'c1', source_content: 'hero', source_term: 'shoes', source_id: null });
  });

  it('sessions create: an external referrer makes referral; none makes direct', async () => {
    const ref = await h.createSession({ referrer: 'https://www.news.example.org/article' });
    expect(ref).toMatchObject({ channel: 'referral', source: 'news.example.org', referrer: 'https://www.news.example.org/article', referrer_domain: 'news.example.org' });
    const search = await h.createSession({ referrer: 'https://www.google.com/' });
    expect(search).toMatchObject({ channel: 'referral', source_group: 'organic_search' });
    const direct = await h.createSession({});
    expect(direct).toMatchObject({ channel: 'direct', source: null, referrer: null, referrer_domain: null });
  });

  it('sessions create: a language or timezone that is not one is a 400 naming the field', async () => {
    for (const [body, field] of [[{ language: '!!' }, 'language'], [{ timezone: 'Not/AZone' }, 'timezone']] as const) {
      const r = await h.admin('POST', `/sites/${h.site.site_id}/sessions`, body);
      expect(r.status).toBe(400);
      expect(r.body.message).toContain(field);
    }
    expect(await h.createSession({ language: 'fr-ca', timezone: 'america/toronto' })).toMatchObject({ language: 'fr-CA', timezone: 'America/Toronto' });
  });

  it('sessions create: a time zone comes back as given, and a filter on that name finds it', async () => {
    const s = await h.createSession({ timezone: 'Asia/Kolkata' });
    expect(s.timezone).toBe('Asia/Kolkata');
    const r = await h.admin('GET', `/sessions?where=${encodeURIComponent('timezone = "Asia/Kolkata"')}`);
    expect(r.body.map((x: { session_id: string }) => x.session_id)).toContain(s.session_id);
  });

  it('sessions create: device fields come from the user agent', async () => {
    expect(await h.createSession({ user_agent: UA.iphone })).toMatchObject({ device_type: 'mobile', os_family: 'iOS', browser_family: 'Safari' });
    expect(await h.createSession({ user_agent: UA.ipad })).toMatchObject({ device_type: 'tablet' });
    expect(await h.createSession({ user_agent: UA.chromeWindows })).toMatchObject({ device_type: 'computer', browser_name: 'Chrome', browser_version: '131.0.0.0', os_family: 'Windows', os_version: '10' });
  });

  it('sessions create: an empty or blank user_agent means none (null), as null does', async () => {
    for (const user_agent of ['', '   ', null]) {
      expect(await h.createSession({ user_agent })).toMatchObject({ user_agent: null, browser_name: null, device_type: null, risks: [] });
    }
  });

  it('sessions create: geo comes from the reserved IP ranges', async () => {
    expect(await h.createSession({ ip: '192.0.2.55' })).toMatchObject({ country_code: 'US', city: 'New York', isp: 'Example Residential', ip_network: '192.0.2', risk_level: 'normal', risks: [] });
    expect(await h.createSession({ ip: '198.51.100.9' })).toMatchObject({ country_code: 'GB', city: 'London', ip_network: '198.51.100' });
    expect(await h.createSession({ ip: '203.0.113.200' })).toMatchObject({ country_code: 'DE', city: 'Berlin' });
    expect(await h.createSession({ ip: '2001:db8:0:1::5' })).toMatchObject({ country_code: 'FR', city: 'Paris', ip_network: '2001:db8:0:1::/64', risk_level: 'normal' });
    expect(await h.createSession({ ip: '127.0.0.1' })).toMatchObject({ country_code: null, city: null, risks: [], risk_level: 'normal' });
  });

  it('sessions create: engagement is bounced for one short view, engaged for 3 views or 60 s', async () => {
    expect((await h.createSession({})).engagement_level).toBe('bounced');
    expect((await h.createSession({ duration: 30 })).engagement_level).toBe('normal');
    expect((await h.createSession({ page_views: 3, duration: 5 })).engagement_level).toBe('engaged');
    expect((await h.createSession({ duration: 60 })).engagement_level).toBe('engaged');
    expect((await h.createSession({ custom_events: ['conversion'] })).engagement_level).toBe('converted');
  });

  it('sessions create: risks and risk levels from the reserved test values', async () => {
    const cases: Array<[Record<string, unknown>, string[], string]> = [
      [{ user_agent: UA.headless }, ['bot'], 'invalid'],
      [{ user_agent: UA.googlebot }, ['crawler'], 'unwanted'],
      [{ referrer: 'https://spam-referrer.test/x' }, ['poor_referrer_reputation'], 'unwanted'],
      [{ ip: '203.0.113.7' }, ['tor', 'anonymous'], 'invalid'],
      [{ ip: '198.51.100.7' }, ['hosting', 'anonymous'], 'suspicious'],
      [{ ip: '192.0.2.1' }, [], 'normal'],
    ];
    for (const [spec, risks, level] of cases) {
      const s = await h.createSession(spec);
      expect([...s.risks].sort(), JSON.stringify(spec)).toEqual([...risks].sort());
      expect(s.risk_level, JSON.stringify(spec)).toBe(level);
    }
  });

  it("sessions create: an excluded country is unwanted; an allowlisted IP is normal", async () => {
    await h.admin('PATCH', `/sites/${h.site.site_id}`, { excluded_countries: ['GB'], ip_allowlist: ['203.0.113.0/28'] });
    const excluded = await h.createSession({ ip: '198.51.100.7', user_agent: UA.chromeWindows });
    expect(excluded.risks).toContain('excluded_country');
    expect(excluded.risk_level).toBe('suspicious'); // hosting outranks excluded_country
    const us = await h.admin('POST', '/sites', { excluded_countries: ['US'] });
    const fromUs = await h.createSession({ ip: '192.0.2.8' }, us.body.site_id);
    expect(fromUs).toMatchObject({ risks: ['excluded_country'], risk_level: 'unwanted' });
    const allowed = await h.createSession({ ip: '203.0.113.5' });
    expect(allowed.risks).toEqual(expect.arrayContaining(['tor']));
    expect(allowed.risk_level).toBe('normal');
    const notAllowed = await h.createSession({ ip: '203.0.113.100' });
    expect(notAllowed.risk_level).toBe('invalid');
  });

  it('sessions create: bad fields are a 400 naming them; an unknown site is a 404', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ page_views: 0 }, 'page_views'], [{ page_views: 'two' }, 'page_views'], [{ duration: -5 }, 'duration'],
      [{ ip: 5 }, 'ip'], [{ ip: 'hello world' }, 'ip'], [{ ip: '999.1.1.1' }, 'ip'],
      [{ custom_events: [''] }, 'custom_events'], [{ colour: 'red' }, 'colour'],
    ];
    for (const [body, field] of cases) {
      const r = await h.admin('POST', `/sites/${h.site.site_id}/sessions`, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.message).toContain(field);
    }
    expect((await h.admin('POST', '/sites/site_nope/sessions', {})).status).toBe(404);
  });

  it('sessions create: a blank custom event name is a 400 naming custom_events; spaces around one are dropped, as the session API does', async () => {
    const r = await h.admin('POST', `/sites/${h.site.site_id}/sessions`, { custom_events: ['signup', '  '] });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'invalid_request' });
    expect(r.body.message).toContain('custom_events');
    expect(r.body.message).toContain('blank');
    expect(await h.createSession({ custom_events: [' conversion '] })).toMatchObject({ custom_events: ['conversion'], engagement_level: 'converted' });
  });

  it('sessions create: an empty or blank url is a 400 invalid_request naming url, as the CLI refuses it', async () => {
    for (const url of ['', '   ', '\t']) {
      const r = await h.admin('POST', `/sites/${h.site.site_id}/sessions`, { url });
      expect(r.status, JSON.stringify(url)).toBe(400);
      expect(r.body).toMatchObject({ code: 'invalid_request', field: 'url' });
      expect(r.body.message).toContain('url');
    }
  });

  it('sessions create: a blank fingerprint is a 400 naming fingerprint, as an empty one is', async () => {
    for (const fingerprint of ['', '  ', '\n']) {
      const r = await h.admin('POST', `/sites/${h.site.site_id}/sessions`, { fingerprint });
      expect(r.status, JSON.stringify(fingerprint)).toBe(400);
      expect(r.body).toMatchObject({ code: 'invalid_request', field: 'fingerprint' });
    }
  });

  it('sessions get: the management API reads any site session', async () => {
    const s = await h.createSession();
    const r = await h.admin('GET', `/sessions/${s.session_id}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual(s);
    expect((await h.admin('GET', '/sessions/ses_nope')).status).toBe(404);
  });
});

describe('management API: sessions list', () => {
  it('sessions list: newest first, with limit and site', async () => {
    const a = await h.createSession({ ip: '192.0.2.1' });
    const b = await h.createSession({ ip: '203.0.113.1' });
    const c = await h.createSession({ ip: '198.51.100.1' });
    const other = (await h.admin('POST', '/sites', { name: 'B' })).body;
    const d = await h.createSession({}, other.site_id);
    const mine = (await h.admin('GET', `/sessions?site=${h.site.site_id}`)).body as Session[];
    expect(mine.map((s) => s.session_id)).toEqual([c, b, a].map((s) => s.session_id));
    const all = (await h.admin('GET', '/sessions')).body as Session[];
    expect(all.map((s) => s.session_id)).toEqual([d, c, b, a].map((s) => s.session_id));
    const two = (await h.admin('GET', `/sessions?site=${h.site.site_id}&limit=2`)).body as Session[];
    expect(two.map((s) => s.session_id)).toEqual([c.session_id, b.session_id]);
    const next = (await h.admin('GET', `/sessions?site=${h.site.site_id}&before=${b.session_id}`)).body as Session[];
    expect(next.map((s) => s.session_id)).toEqual([a.session_id]);
  });

  it('sessions, checks and logs lists: a before= that names nothing is a 400 naming before, not the first page again', async () => {
    await h.createSession();
    for (const path of ['/sessions?before=ses_gone', '/checks?before=chk_gone', '/logs?before=req_gone']) {
      const r = await h.admin<{ code: string; message: string }>('GET', path);
      expect(r.status, path).toBe(400);
      expect(r.body.code).toBe('invalid_request');
      expect(r.body.message).toMatch(/^before: no .*_gone/);
    }
  });

  it('sessions list: where filters the sessions', async () => {
    const tor = await h.createSession({ ip: '203.0.113.1', url: 'https://a.test/?gclid=z' });
    await h.createSession({ ip: '192.0.2.1' });
    const dc = await h.createSession({ ip: '198.51.100.1' });
    const q = (w: string) => h.admin('GET', `/sessions?where=${encodeURIComponent(w)}`);
    expect(((await q('risk_level = invalid')).body as Session[]).map((s) => s.session_id)).toEqual([tor.session_id]);
    expect(((await q('risk_level in (suspicious, invalid)')).body as Session[]).map((s) => s.session_id)).toEqual([dc.session_id, tor.session_id]);
    expect(((await q('risks contains tor and channel = paid')).body as Session[]).map((s) => s.session_id)).toEqual([tor.session_id]);
    expect((await q('country_code = FR')).body).toEqual([]);
  });

  it('sessions list: a bad filter is a 400 invalid_filter with the position', async () => {
    const r = await h.admin('GET', `/sessions?where=${encodeURIComponent('risk_level = invalid and chanel = paid')}`);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('invalid_filter');
    expect(r.body.position).toBe('risk_level = invalid and '.length);
    expect(r.body.message).toMatch(/chanel/);
    const unclosed = await h.admin('GET', `/sessions?where=${encodeURIComponent('(risk_level = invalid')}`);
    expect(unclosed.status).toBe(400);
    expect(unclosed.body.code).toBe('invalid_filter');
    expect(typeof unclosed.body.position).toBe('number');
  });

  it('sessions list: an empty where is a 400 invalid_filter, as a blank one is, not every session', async () => {
    await h.createSession({ ip: '192.0.2.1' });
    for (const where of ['', '   ']) {
      const r = await h.admin('GET', `/sessions?where=${encodeURIComponent(where)}`);
      expect(r.status, JSON.stringify(where)).toBe(400);
      expect(r.body).toMatchObject({ code: 'invalid_filter', position: 0 });
      expect(r.body.message).toMatch(/^empty filter/);
    }
  });

  it('sessions list: a bad limit or unknown site is refused', async () => {
    for (const limit of ['0', 'abc', '1.5', '10001', '-3']) {
      const r = await h.admin('GET', `/sessions?limit=${limit}`);
      expect(r.status, limit).toBe(400);
      expect(r.body.message).toContain('limit');
    }
    expect((await h.admin('GET', '/sessions?site=site_nope')).status).toBe(404);
  });
});

describe('management API: sessions simulate (refused bodies)', () => {
  it('sessions simulate: a count sent as a string or null is told a whole number was expected, a count left out that it is required', async () => {
    const path = `/sites/${h.site.site_id}/sessions/simulate`;
    expect((await h.admin('POST', path, { count: '5' })).body).toMatchObject({ code: 'invalid_request', field: 'count', message: 'count: expected a whole number' });
    expect((await h.admin('POST', path, { count: null })).body.message).toBe('count: expected a whole number');
    expect((await h.admin('POST', path, {})).body.message).toBe('count: required, a whole number');
    expect((await h.admin('POST', path, { count: 1.5 })).body.message).toBe('count: must be a whole number');
  });
});

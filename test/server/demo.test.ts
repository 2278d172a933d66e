import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator } from '../../src/emulator.js';

let emu: ReturnType<typeof createEmulator>;
beforeAll(() => {
  emu = createEmulator({ dbPath: ':memory:' });
});
afterAll(() => emu.close());

describe('demo', () => {
  it('demo: the page embeds the agent with the default site key and a marked form', async () => {
    const res = await emu.app.request('/_vtr/demo');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    const key = emu.bootstrap!.site.site_key;
    expect(html).toContain(`<script src="/agent.js" data-site-key="${key}"></script>`);
    expect(html).toContain(`data-vtr-site-key="${key}"`);
    expect(html).toContain('action="/_vtr/demo/signup"');
  });

  it('demo: ?site=default is the default site\'s page, as it is wherever a site id goes', async () => {
    const res = await emu.app.request('/_vtr/demo?site=default', { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(`data-site-key="${emu.bootstrap!.site.site_key}"`);
  });

  it('demo: signup runs a visitor check with the probe and shows its result', async () => {
    const pv = (await (await emu.app.request('/_vtr/agent/pageview', {
      method: 'POST',
      headers: { 'x-forwarded-for': '192.0.2.80' },
      body: JSON.stringify({ site_key: emu.bootstrap!.site.site_key, url: 'http://127.0.0.1/_vtr/demo' }),
    })).json()) as { probe_id: string; session_id: string };
    const form = new URLSearchParams({ site: emu.bootstrap!.site.site_id, probe_id: pv.probe_id, email: 'someone@mailinator.com', name: 'Some One', phone: '(212) 664-7665' });
    const res = await emu.app.request('/_vtr/demo/signup', {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '192.0.2.80' }, body: form.toString(),
    });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(/data-testid="risk-level">suspicious</);
    expect(html).toContain(pv.session_id);
    expect(html).toContain('disposable_email');
    const [check] = (await (await emu.app.request('/_vtr/api/checks?limit=1')).json()) as any[];
    expect(check).toMatchObject({ session_id: pv.session_id, device: { valid: true, probe_ip_match: true }, phone: { phone: '+12126647665' } });
  });

  it('demo: the result shows the site\'s decision and leads to the console and the CLI for its site', async () => {
    const signup = (body: string) => emu.app.request('/_vtr/demo/signup', {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '203.0.113.7' }, body,
    });
    const pageview = async (siteKey: string) => (await (await emu.app.request('/_vtr/agent/pageview', {
      method: 'POST', headers: { 'x-forwarded-for': '203.0.113.7' }, body: JSON.stringify({ site_key: siteKey, url: 'http://127.0.0.1/_vtr/demo' }),
    })).json()) as { probe_id: string; session_id: string };
    const own = await pageview(emu.bootstrap!.site.site_key);
    const html = await (await signup(`probe_id=${own.probe_id}&email=a%40example.com`)).text();
    // Tor: invalid traffic is blocked, and the anonymous rule asks for review.
    expect(html).toMatch(/data-testid="outcome">blocked</);
    expect(html).toContain('data-testid="review">');
    expect(html).toMatch(/data-testid="rules">anonymous \(review\)</);
    expect(html).toContain(`href="/_vtr/console/sessions/${own.session_id}"`);
    expect(html).toMatch(/href="\/_vtr\/console\/checks\/chk_/);
    expect(html).toContain(`<code>vtr session get ${own.session_id}</code>`);

    const other = emu.deps.sites.create({ name: 'Other shop' });
    const theirs = await pageview(other.site_key);
    const otherHtml = await (await signup(`site=${other.site_id}&probe_id=${theirs.probe_id}`)).text();
    expect(otherHtml).toContain(`<code>vtr session get ${theirs.session_id} --site ${other.site_id}</code>`);
  });

  it('demo: an unknown site opened in a browser is an HTML page naming it and linking to the sites, API clients keep the JSON', async () => {
    const browser = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
    const pages = [
      await emu.app.request('/_vtr/demo?site=site_nope', { headers: browser }),
      await emu.app.request('/_vtr/demo/signup', {
        method: 'POST', headers: { ...browser, 'content-type': 'application/x-www-form-urlencoded' }, body: 'site=site_nope&email=a%40example.com',
      }),
    ];
    for (const res of pages) {
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await res.text();
      expect(html).toContain('<h1>Not found</h1>');
      expect(html).toContain('site site_nope not found');
      expect(html).toContain('href="/_vtr/console/sites"');
      expect(html).toContain('· vtr console</title>');
    }
    for (const accept of ['application/json', undefined]) {
      const res = await emu.app.request('/_vtr/demo?site=site_nope', { headers: accept ? { accept } : {} });
      expect(res.status).toBe(404);
      expect(((await res.json()) as { code: string }).code).toBe('not_found');
    }
  });

  it('demo: a form without a probe shows an invalid probe, and HTML is escaped', async () => {
    const res = await emu.app.request('/_vtr/demo/signup', {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'email=%3Cscript%3Ex%3C%2Fscript%3E',
    });
    const html = await res.text();
    expect(html).toContain('invalid_probe');
    expect(html).not.toContain('<script>x</script>');
  });
});

describe('demo under a frozen clock', () => {
  it('demo: the result page names the zone of its times and marks them emulated', async () => {
    const frozen = createEmulator({ dbPath: ':memory:', clock: 'frozen' });
    try {
      const res = await frozen.app.request('/_vtr/demo/signup', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'email=a%40example.com' });
      const html = await res.text();
      expect(html).toMatch(/<th>created_at<\/th><td class="mono">\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(emulated\)<\/td>/);
      expect(html).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}/);
      expect(html).toContain('<link rel="icon" href="data:,">');
    } finally {
      await frozen.close();
    }
  });
});

describe('demo under --rate-limit', () => {
  it('demo: a check refused by the rate limit answers 429 with Retry-After, not a gateway error', async () => {
    // A frozen clock: every post shares one window of the limiter, however slow the machine.
    const limited = createEmulator({ dbPath: ':memory:', rateLimit: 1, clock: 'frozen' });
    try {
      const post = () => limited.app.request('/_vtr/demo/signup', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'email=a%40example.com' });
      const statuses = [(await post()).status, (await post()).status, (await post()).status];
      expect(statuses).toContain(429);
      expect(statuses).not.toContain(502);
      const res = await post();
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    } finally {
      await limited.close();
    }
  });
});

describe('demo under --admin-token', () => {
  it('demo: opened with ?admin_token=, the token is kept in the cookie so the sign-up post is let in', async () => {
    const T = 'demo-admin-token';
    const guarded = createEmulator({ dbPath: ':memory:', adminToken: T });
    try {
      const opened = await guarded.app.request(`/_vtr/demo?admin_token=${T}&site=${guarded.bootstrap!.site.site_id}`, { headers: { accept: 'text/html' } });
      expect(opened.status).toBe(302);
      expect(opened.headers.get('location')).toBe(`/_vtr/demo?site=${guarded.bootstrap!.site.site_id}`);
      const cookie = opened.headers.get('set-cookie')!.split(';')[0];
      expect(cookie).toBe(`vtr_admin=${T}`);
      expect((await guarded.app.request('/_vtr/demo', { headers: { accept: 'text/html', cookie } })).status).toBe(200);
      const signup = await guarded.app.request('/_vtr/demo/signup', {
        method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie }, body: 'email=a%40example.com',
      });
      expect(signup.status).toBe(200);
      expect(await signup.text()).toContain('data-testid="risk-level"');
      // A wrong token is still refused.
      expect((await guarded.app.request('/_vtr/demo?admin_token=nope', { headers: { accept: 'text/html' } })).status).toBe(302);
      expect((await guarded.app.request('/_vtr/demo/signup', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'email=a' })).status).toBe(401);
    } finally {
      await guarded.close();
    }
  });
});

// The console's server side (the browser test drives it for real): pages, escaping, filter errors,
// paging, forms with their same-origin rule (caching and the admin-token cookie: console-access.test.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { harnessPool } from '../helpers/emulator.js';
import { form, page } from '../helpers/console-requests.js';
import { html, raw, scriptJson } from '../../src/server/console/html.js';

const pool = harnessPool();
const fresh = pool.fresh;
afterEach(pool.closeAll);

describe('html helper', () => {
  it('escapes interpolations, keeps nested html and raw, joins arrays', () => {
    const evil = `<img src=x onerror="alert('1')">&`;
    expect(html`<p title="${evil}">${evil}</p>`.text).toBe('<p title="&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt;&amp;">&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt;&amp;</p>');
    expect(html`<ul>${['a', '<b>'].map((x) => html`<li>${x}</li>`)}</ul>`.text).toBe('<ul><li>a</li><li>&lt;b&gt;</li></ul>');
    expect(html`${null}${undefined}${false}${0}${raw('<br>')}`.text).toBe('0<br>');
    expect(scriptJson({ s: '</script><script>x' }).text).toBe('{"s":"\\u003c/script>\\u003cscript>x"}');
  });
});

describe('console pages', () => {
  it('/ opens the sessions page; every page renders with landmarks and the nav', async () => {
    const h = fresh();
    const s = await h.createSession();
    const root = await page(h, '/');
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/_vtr/console/sessions');
    for (const p of ['sessions', `sessions/${s.session_id}`, 'checks', 'sites', 'tokens', 'views', 'webhooks', 'logs', 'outbox']) {
      const r = await page(h, `/_vtr/console/${p}`);
      expect(r.status, p).toBe(200);
      expect(r.text).toContain('<html lang="en">');
      expect(r.text).toMatch(/<main id="main"/);
      expect(r.text).toContain('<nav aria-label="Main">');
      expect(r.text).toContain('aria-current="page"');
    }
    expect((await page(h, '/_vtr/console/sessions/ses_nope')).status).toBe(404);
    expect((await page(h, '/_vtr/console/checks/chk_nope')).status).toBe(404);
  });

  it('every link from / reaches a page: no console link is broken', async () => {
    const h = fresh();
    const s = await h.createSession({ ip: '198.51.100.7' });
    await h.admin('POST', `/sites/${h.site.site_id}/views`, { name: 'Risky', filter: 'risk_level = suspicious', trigger_webhooks: true });
    await h.admin('POST', `/sites/${h.site.site_id}/webhooks`, { url: 'http://127.0.0.1:9/hook' });
    await h.admin('POST', `/sites/${h.site.site_id}/rules`, { name: 'No VPN', filter: 'risks contains vpn', action: 'block' });
    await h.json('POST', '/api/v1/event', { body: { secret_key: h.site.secret_key, ip: '192.0.2.1' } });
    await h.createSession({ ip: '198.51.100.8' });
    const seen = new Set<string>();
    const queue = ['/_vtr/console/sessions', `/_vtr/console/sessions/${s.session_id}`];
    const broken: string[] = [];
    while (queue.length > 0) {
      const path = queue.shift()!;
      if (seen.has(path)) continue;
      seen.add(path);
      const r = await page(h, path);
      if (r.status >= 400) broken.push(`${path} ${r.status}`);
      if (!path.startsWith('/_vtr/console')) continue;
      for (const [, href] of r.text.matchAll(/<a [^>]*href="([^"]+)"/g)) {
        const to = new URL(href.replaceAll('&amp;', '&'), 'http://localhost/');
        if (to.host === 'localhost') queue.push(to.pathname + to.search);
      }
    }
    expect(broken).toEqual([]);
    expect(seen.size).toBeGreaterThan(10);
    // The rules page's allowlist link opens the site's settings, where the allowlist is shown.
    expect((await page(h, `/_vtr/console/sites?settings=${h.site.site_id}`)).text).toContain('<details open><summary aria-label="Settings of ');
  });

  it("sites page: each site's card links to its rules, as the rules page links back to the site's allowlist", async () => {
    const h = fresh();
    const text = (await page(h, '/_vtr/console/sites')).text;
    expect(text).toContain(`<a href="/_vtr/console/rules?site=${h.site.site_id}" aria-label="Rules of Local site (${h.site.site_id})">Rules</a>`);
  });

  it('sessions and checks: a ?site= naming no site says so in the site picker instead of showing "All sites"', async () => {
    const h = fresh();
    await h.createSession();
    for (const p of ['sessions', 'checks']) {
      const r = await page(h, `/_vtr/console/${p}?site=site_gone`);
      expect(r.status, p).toBe(200);
      expect(r.text, p).toContain('<option value="site_gone" selected>site_gone (no such site)</option>');
      expect(r.text, p).toMatch(/<select id="site" name="site" aria-invalid="true">/);
    }
    const known = await page(h, `/_vtr/console/sessions?site=${h.site.site_id}`);
    expect(known.text).not.toContain('no such site');
  });

  it('a console URL no page has: the console\'s 404 page, not the API\'s JSON', async () => {
    const h = fresh();
    const r = await page(h, '/_vtr/console/nosuch');
    expect(r.status).toBe(404);
    expect(r.text).toContain('<h1>Not found</h1>');
    expect(r.text).toContain('the console has no page /_vtr/console/nosuch');
    // The API keeps its JSON.
    expect((await h.request('/_vtr/api/nosuch')).headers.get('content-type')).toMatch(/json/);
  });

  it('escapes what visitors control', async () => {
    const h = fresh();
    const s = await h.createSession({ user_agent: '<script>alert(1)</script>', url: 'https://example.com/"><img src=x onerror=alert(2)>' });
    for (const p of ['/_vtr/console/sessions', `/_vtr/console/sessions/${s.session_id}`]) {
      const r = await page(h, p);
      expect(r.text).not.toContain('<script>alert(1)');
      expect(r.text).not.toContain('<img src=x');
    }
    expect((await page(h, `/_vtr/console/sessions/${s.session_id}`)).text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('filters with the filter language; a bad filter shows the error with a caret', async () => {
    const h = fresh();
    const tor = await h.createSession({ ip: '203.0.113.7' });
    const clean = await h.createSession({ ip: '192.0.2.1' });
    const ok = await page(h, `/_vtr/console/sessions?where=${encodeURIComponent('risk_level = invalid')}`);
    expect(ok.text).toContain(tor.session_id);
    expect(ok.text).not.toContain(clean.session_id);
    const bad = await page(h, `/_vtr/console/sessions?where=${encodeURIComponent('risk_level == x')}`);
    expect(bad.status).toBe(200);
    expect(bad.text).toContain('role="alert"');
    expect(bad.text).toContain('risk_level == x\n           ^');
    expect(bad.text).toContain('&quot;==&quot; at position 11 is not an operator: write &quot;=&quot;');
    expect(bad.text).toContain('aria-invalid="true"');
    // The live-row fragment applies the same filter.
    expect((await h.request(`/_vtr/console/sessions/${tor.session_id}/row?where=${encodeURIComponent('risk_level = invalid')}`)).status).toBe(200);
    expect((await h.request(`/_vtr/console/sessions/${clean.session_id}/row?where=${encodeURIComponent('risk_level = invalid')}`)).status).toBe(204);
  });

  it('session page: the line under its heading names each value (engagement, channel, site), not a bare word beside the risk', async () => {
    const h = fresh();
    const s = (await h.json('POST', '/_vtr/api/sites/default/sessions', { body: { page_views: 3, duration: 40 } })).body as { session_id: string; engagement_level: string; channel: string };
    const text = (await page(h, `/_vtr/console/sessions/${s.session_id}`)).text;
    expect(text).toContain(`engagement: ${s.engagement_level} · channel: ${s.channel} · site: Local site`);
  });

  it('sessions: an id pasted into the filter opens its page (a probe id opens its session)', async () => {
    const h = fresh();
    const pv = await h.json('POST', '/_vtr/agent/pageview', { body: { site_key: h.site.site_key, url: 'https://shop.test/' } });
    const { probe_id, session_id } = pv.body as { probe_id: string; session_id: string };
    const check = await h.json('POST', '/api/v1/event', { body: { secret_key: h.site.secret_key, probe_id } });
    const go = async (text: string) => page(h, `/_vtr/console/sessions?where=${encodeURIComponent(` ${text} `)}`);
    expect((await go(probe_id)).headers.get('location')).toBe(`/_vtr/console/sessions/${session_id}`);
    expect((await go(session_id)).headers.get('location')).toBe(`/_vtr/console/sessions/${session_id}`);
    expect((await go(check.body.id)).headers.get('location')).toBe(`/_vtr/console/checks/${check.body.id}`);
    const unknown = await go('prb_' + 'x'.repeat(32));
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain('no probe');
  });

  it('sessions: a webhook or webhook event id pasted into the filter says what it is and links to its page, not "unknown field"', async () => {
    const h = fresh();
    const hook = (await h.admin('POST', `/sites/${h.site.site_id}/webhooks`, { url: 'http://127.0.0.1:9/hook' })).body;
    const go = async (text: string) => page(h, `/_vtr/console/sessions?where=${encodeURIComponent(text)}`);
    const wh = await go(hook.webhook_id);
    expect(wh.status).toBe(200);
    expect(wh.text).not.toContain('unknown field');
    expect(wh.text).toContain(`${hook.webhook_id} is a webhook id`);
    expect(wh.text).toContain(`href="/_vtr/console/webhooks/${hook.webhook_id}"`);
    const event = (await h.admin('POST', `/webhooks/${hook.webhook_id}/trigger`, {})).body;
    const ev = await go(event.webhook_event_id);
    expect(ev.text).not.toContain('unknown field');
    expect(ev.text).toContain(`${event.webhook_event_id} is a webhook event id`);
    expect(ev.text).toContain(`href="/_vtr/console/webhook-events/${event.webhook_event_id}"`);
    for (const gone of ['wh_' + 'B'.repeat(16), 'msg_' + 'C'.repeat(24)]) {
      const r = await go(gone);
      expect(r.text).not.toContain('unknown field');
      expect(r.text).toContain('href="/_vtr/console/webhooks"');
    }
  });

  it('check page: a probe id with an invisible character pasted into it says so beside "malformed"', async () => {
    const h = fresh();
    const check = await h.json('POST', '/api/v1/event', { body: { secret_key: h.site.secret_key, probe_id: `prb_8Dvta\u200bYeI0zKef05clgAJtzXntPcfVGWe` } });
    const r = await page(h, `/_vtr/console/checks/${check.body.id}`);
    expect(r.text).toContain('malformed');
    expect(r.text).toContain('an invisible character (U+200B) at position 10');
  });

  it('pages with a before cursor', async () => {
    const h = fresh();
    for (let i = 0; i < 53; i++) await h.createSession();
    const first = await page(h, '/_vtr/console/sessions');
    expect(first.text.match(/<tr id="row-/g)).toHaveLength(50);
    const older = /href="([^"]*before=[^"]*)" rel="next"/.exec(first.text)![1].replace(/&amp;/g, '&');
    const second = await page(h, older);
    expect(second.text.match(/<tr id="row-/g)).toHaveLength(3);
    expect(second.text).toContain('← Newest');
  });

  it('pages: a list of exactly one page has no "Older" link to an empty page', async () => {
    const h = fresh();
    for (let i = 0; i < 50; i++) await h.createSession();
    const first = await page(h, '/_vtr/console/sessions');
    expect(first.text.match(/<tr id="row-/g)).toHaveLength(50);
    expect(first.text).not.toContain('Older →');
  });

  it('a before cursor that names nothing shows the newest entries (the API answers 400)', async () => {
    const h = fresh();
    await h.request('/api/v1/nowhere');
    for (const path of ['/_vtr/console/logs?before=req_gone', '/_vtr/console/checks?before=chk_gone', '/_vtr/console/sessions?before=ses_gone']) {
      const r = await page(h, path);
      expect(r.status, path).toBe(200);
    }
    expect((await page(h, '/_vtr/console/logs?before=req_gone')).text).toContain('/api/v1/nowhere');
  });

  it('rotates keys and creates/revokes tokens through same-origin forms only', async () => {
    const h = fresh();
    const site = h.site.site_id;
    const evil = await form(h, `/_vtr/console/sites/${site}/rotate`, {}, { origin: 'https://evil.example' });
    expect(evil.status).toBe(403);
    expect((await h.admin('GET', `/sites/${site}`)).body.secret_key).toBe(h.site.secret_key);
    const crossSite = await form(h, `/_vtr/console/sites/${site}/rotate`, {}, { 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    const ok = await form(h, `/_vtr/console/sites/${site}/rotate`, {});
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toContain('/_vtr/console/sites?rotated=');
    expect((await h.admin('GET', `/sites/${site}`)).body.secret_key).not.toBe(h.site.secret_key);

    expect((await form(h, '/_vtr/console/tokens', { site_id: site })).status).toBe(303);
    const tokens = (await h.admin<Array<{ token: string; revoked_at: string | null }>>('GET', `/sites/${site}/tokens`)).body;
    expect(tokens).toHaveLength(2);
    expect((await form(h, '/_vtr/console/tokens/revoke', { token: tokens[1].token })).status).toBe(303);
    expect((await h.admin<Array<{ revoked_at: string | null }>>('GET', `/sites/${site}/tokens`)).body[1].revoked_at).not.toBeNull();
    expect((await form(h, '/_vtr/console/tokens/revoke', { token: 'at_test_nope' })).status).toBe(404);
  });

  it('tokens: the action column is headed Actions, as on the other tables, not left blank', async () => {
    const h = fresh();
    const text = (await page(h, '/_vtr/console/tokens')).text;
    expect(text).toContain('<th scope="col">Revoked</th><th scope="col">Actions</th>');
    expect(text).not.toContain('<th scope="col"></th>');
  });

  it('shows checks, the request log and the mail outbox', async () => {
    const h = fresh();
    const check = await h.api('POST', '/event', { token: null, body: { secret_key: h.site.secret_key, email: 'x@mailinator.com' } });
    expect((await page(h, '/_vtr/console/checks')).text).toContain(check.body.id);
    const detail = await page(h, `/_vtr/console/checks/${check.body.id}`);
    expect(detail.text).toContain('disposable');
    expect(detail.text).toContain('Not sent.');
    const logs = await page(h, '/_vtr/console/logs');
    expect(logs.text).toContain('/api/v1/event');
    expect(logs.text).not.toContain(h.site.secret_key);
    h.emulator.store.db
      .prepare("INSERT INTO notifications VALUES ('ntf_1', 'webhook_event_failed', ?, NULL, NULL, 'o@example.com', 'Webhook <failed>', 'Body', '2026-01-01T00:00:00.000000', NULL, NULL, 1, 0)")
      .run(h.site.site_id);
    const outbox = await page(h, '/_vtr/console/outbox');
    expect(outbox.text).toContain('Webhook &lt;failed&gt;');
  });

  it('outbox: a mail whose SMTP send is still to happen says it waits, not "outbox only"', async () => {
    const h = fresh();
    const insert = h.emulator.store.db.prepare(
      "INSERT INTO notifications VALUES (?, 'webhook_event_failed', ?, NULL, NULL, 'o@example.com', 'Failed', 'Body', '2026-01-01T00:00:00.000000', ?, ?, ?, ?)",
    );
    insert.run('ntf_waiting', h.site.site_id, null, null, 1, 1);
    insert.run('ntf_local', h.site.site_id, null, null, 2, 0);
    insert.run('ntf_sent', h.site.site_id, '2026-01-01T00:00:01.000000', null, 3, 0);
    insert.run('ntf_failed', h.site.site_id, null, 'connect ECONNREFUSED', 4, 0);
    const text = (await page(h, '/_vtr/console/outbox')).text;
    const smtpCell = (id: string) => text.match(new RegExp(`<tr id="mail-${id}">[\\s\\S]*?<td>((?:(?!</td>)[\\s\\S])*)</td><td class="mono">`))?.[1];
    expect(smtpCell('ntf_waiting')).toContain('waiting to be sent');
    expect(smtpCell('ntf_waiting')).not.toContain('outbox only');
    expect(smtpCell('ntf_local')).toContain('outbox only');
    expect(smtpCell('ntf_sent')).toContain('sent <time');
    expect(smtpCell('ntf_failed')).toContain('failed: connect ECONNREFUSED');
    // The API's JSON keeps its fields: whether a send waits is not part of it.
    const api = await h.admin('GET', '/notifications');
    expect(Object.keys(api.body[0]).sort()).not.toContain('send_pending');
  });
});

// Hostile input against the built server (a real `vtr serve` process): thousands of generated bad
// requests. Whatever arrives, the server answers below 500, every JSON error is the contract's
// {code, message}, it keeps running and answering, and it logs no "unexpected error".
// Paths, ids, filters, query strings, console forms and clock moves: what a route makes of hostile values.
import { describe, expect, it } from 'vitest';
import { type HostileTarget, json, runAll, useHostileTarget } from '../helpers/hostile-http.js';

let vtr: HostileTarget;
useHostileTarget((target) => (vtr = target));

describe('hostile HTTP input', () => {
  it('paths: traversal attempts read no file and get a 4xx', async () => {
    const paths = [
      '/api/v1/session/..%2f..%2fetc%2fpasswd',
      '/api/v1/session/..%2F..%2F..%2Fpackage.json',
      '/api/v1/session/../../etc/passwd',
      '/api/v1/%2e%2e/%2e%2e/etc/passwd',
      '/api/v1/session/%252e%252e%252fetc%252fpasswd',
      '/api/v1/session/..%5c..%5cetc%5cpasswd',
      '/api/v1/session/....//....//etc/passwd',
      '/agent.js/../../package.json',
      '/agent.js%2f..%2f..%2fpackage.json',
      '/_vtr/console/..%2f..%2fpackage.json',
      '/_vtr/console/sessions/..%2f..%2f..%2fetc%2fpasswd',
      '/_vtr/api/sites/..%2f..%2f..%2fetc%2fpasswd',
      '/_vtr/api/sessions/..%2f..%2fetc%2fpasswd',
      '//etc/passwd',
      '/%2e%2e%2f%2e%2e%2fetc%2fpasswd',
      '/static/../../../../etc/passwd',
      '/node_modules/../package.json',
      '/.git/config',
      '/.vtr/vtr.db',
      '/dist/cli.js',
      '/_vtr/demo/..%2f..%2fpackage.json',
    ];
    for (const p of paths) {
      for (const a of [await vtr.send('GET', p, { headers: vtr.bearer() }), await vtr.sendRaw(`GET ${p} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${vtr.token}\r\nConnection: close\r\n\r\n`)]) {
        vtr.check(`GET ${p}`, a, { allowTransportError: true });
        expect(a.body, p).not.toMatch(/root:.*:0:0|"name":\s*"vtr"|\[core\]|SQLite format/);
      }
    }
    await vtr.expectHealthy();
  });

  it('injection: SQL in ids, filters and site ids changes nothing', async () => {
    const evil = [
      "' OR '1'='1", "' OR 1=1 --", '" OR 1=1 --', "1; DROP TABLE sessions; --", "x'); DELETE FROM sessions; --", "' UNION SELECT * FROM sites --",
      "%' OR '%'='", '\\', "''", '`', '*', '%', '_', '?', ':name', '@id', '$1', 'NULL', '0x00', "ses_' || (SELECT secret_key FROM sites) || '",
    ];
    const cases: Array<{ path: string; headers?: Record<string, string> }> = [];
    for (const e of evil) {
      const id = encodeURIComponent(e);
      cases.push({ path: `/api/v1/session/${id}`, headers: vtr.bearer() });
      cases.push({ path: `/_vtr/api/sessions/${id}` });
      cases.push({ path: `/_vtr/api/sites/${id}` });
      cases.push({ path: `/_vtr/api/sites/${id}/sessions` });
      cases.push({ path: `/_vtr/api/sites/${id}/tokens` });
      cases.push({ path: `/_vtr/api/sites/${id}/keys` });
      cases.push({ path: `/_vtr/api/views/${id}` });
      cases.push({ path: `/_vtr/api/webhooks/${id}` });
      cases.push({ path: `/_vtr/api/webhooks/${id}/events` });
      cases.push({ path: `/_vtr/api/webhook-events/${id}` });
      cases.push({ path: `/_vtr/api/checks/${id}` });
      cases.push({ path: `/_vtr/api/logs/${id}` });
      cases.push({ path: `/_vtr/api/sessions?site=${id}` });
      cases.push({ path: `/_vtr/api/sessions?before=${id}` });
      cases.push({ path: `/_vtr/api/sessions?limit=${id}` });
      cases.push({ path: `/_vtr/api/views?site=${id}` });
      cases.push({ path: `/_vtr/api/webhooks?site=${id}` });
      cases.push({ path: `/api/v1/session/${vtr.sessionId}`, headers: { authorization: `Bearer ${e}` } });
      for (const f of [`channel = "${e.replace(/"/g, '\\"')}"`, `channel = '${e.replace(/'/g, "\\'")}'`, `risks contains "${e.replace(/"/g, '\\"')}"`, `city contains '${e.replace(/'/g, "\\'")}'`, `site_id in ("${e.replace(/"/g, '\\"')}", x)`, e, `channel = paid ${e}`, `(channel = paid) ${e}`]) {
        cases.push({ path: `/_vtr/api/sessions?where=${encodeURIComponent(f)}` });
      }
    }
    await runAll(cases, 8, async (c) => {
      const a = await vtr.send('GET', c.path, { headers: c.headers ?? {} });
      vtr.check(`GET ${c.path}`, a);
      // An injected filter never widens the result to every session.
      if (c.path.startsWith('/_vtr/api/sessions?where=') && a.status === 200) {
        const rows = JSON.parse(a.body) as unknown[];
        expect(rows.length, c.path).toBe(0);
      }
    });
    for (const e of evil) {
      vtr.check('DELETE token', await vtr.send('DELETE', `/_vtr/api/tokens/${encodeURIComponent(e)}`));
      vtr.check('POST event with evil name', await vtr.send('POST', `/api/v1/session/${vtr.sessionId}/event`, { body: JSON.stringify({ name: e.slice(0, 100) }), headers: { ...json, ...vtr.bearer() } }));
      vtr.check('check with evil secret', await vtr.send('POST', '/api/v1/event', { body: JSON.stringify({ secret_key: e, ip: e, email: e, phone: e, probe_id: e }), headers: json }));
    }
    // The data is all still there, and the evil names were stored as plain text.
    const g = await vtr.send('GET', `/api/v1/session/${vtr.sessionId}`, { headers: vtr.bearer() });
    expect(g.status).toBe(200);
    expect(JSON.parse(g.body).custom_events).toEqual(expect.arrayContaining(["' OR '1'='1", '1; DROP TABLE sessions; --']));
    const sites = await vtr.send('GET', '/_vtr/api/sites');
    expect(JSON.parse(sites.body).some((s: { site_id: string }) => s.site_id === vtr.siteId)).toBe(true);
    await vtr.expectHealthy();
  });

  it('filters: random filter text in ?where= is a 200 or a 400 invalid_filter', async () => {
    const tokens = ['channel', 'risk_level', 'risks', 'page_views', 'created_at', 'returned', 'city', 'nope', '=', '!=', '<', '<=', '>', '>=', 'in', 'not', 'contains', 'is', 'null', 'and', 'or', '(', ')', ',', '"x"', "'y'", '"', "'", '\\', '1', '-1.5', '1e9', 'true', 'paid', 'invalid', '💥', '\u0000', ';', '--', '/*', '%', '!'];
    const filters: string[] = [];
    for (let i = 0; i < 400; i++) {
      const n = 1 + Math.floor(vtr.rand() * 9);
      filters.push(Array.from({ length: n }, () => vtr.pick(tokens)).join(vtr.pick([' ', ' ', '', '  '])));
    }
    filters.push('('.repeat(1000) + 'channel = paid' + ')'.repeat(1000), 'not '.repeat(1000) + 'channel = paid', 'channel = paid or '.repeat(300) + 'channel = paid', 'x'.repeat(10_000), `channel in (${Array.from({ length: 2000 }, (_, i) => `v${i}`).join(',')})`);
    await runAll(filters, 8, async (f) => {
      const a = await vtr.send('GET', `/_vtr/api/sessions?where=${encodeURIComponent(f)}`);
      vtr.check(`where ${f.slice(0, 60)}`, a);
      if (a.status !== 200 && a.status !== 414 && a.status !== 431) {
        expect(a.status, f.slice(0, 100)).toBe(400);
        expect(JSON.parse(a.body).code).toMatch(/invalid_filter|invalid_request/);
      }
    });
    await vtr.expectHealthy();
  });

  it('query parameters: hostile values on every list route, console page and form', async () => {
    const values = ['-1', '0', '1.5', '1e309', 'NaN', 'Infinity', '99999999999999999999', '', '%00', '%', '%E0%A4%A', encodeURIComponent("' OR 1=1 --"), encodeURIComponent('😀\u202E'), 'x'.repeat(5000), encodeURIComponent('channel = paid')];
    const bases = [
      (v: string) => `/_vtr/api/sessions?limit=${v}&before=${v}&site=${v}`,
      (v: string) => `/_vtr/api/checks?limit=${v}&site=${v}&session=${v}&before=${v}`,
      (v: string) => `/_vtr/api/logs?limit=${v}&before=${v}&site=${v}`,
      (v: string) => `/_vtr/api/views?site=${v}`,
      (v: string) => `/_vtr/api/webhooks?site=${v}`,
      (v: string) => `/_vtr/api/notifications?limit=${v}&site=${v}`,
      (v: string) => `/_vtr/api/webhooks/${v}/events?status=${v}&limit=${v}`,
      (v: string) => `/_vtr/api/sessions?limit=1&limit=${v}&where=${v}`,
      (v: string) => `/_vtr/demo?site=${v}`,
      (v: string) => `/_vtr/console/sessions?where=${v}&limit=${v}&before=${v}&site=${v}`,
      (v: string) => `/_vtr/console/sessions/${v}`,
      (v: string) => `/_vtr/console/sessions/${v}/row`,
      (v: string) => `/_vtr/console/checks/${v}/row`,
      (v: string) => `/_vtr/console/checks?limit=${v}&before=${v}&site=${v}`,
      (v: string) => `/_vtr/console/checks/${v}`,
      (v: string) => `/_vtr/console/logs?limit=${v}&before=${v}&site=${v}`,
      (v: string) => `/_vtr/console/outbox?site=${v}`,
      (v: string) => `/_vtr/console/sites?site=${v}`,
      (v: string) => `/_vtr/console/tokens?site=${v}`,
      (v: string) => `/_vtr/console/webhooks?site=${v}`,
      (v: string) => `/_vtr/console/views?site=${v}`,
      (v: string) => `/?admin_token=${v}&site=${v}`,
    ];
    const paths = bases.flatMap((b) => values.map((v) => b(v)));
    await runAll(paths, 8, async (p) => vtr.check(`GET ${p.slice(0, 80)}`, await vtr.send('GET', p, { headers: { accept: 'text/html' } })));
    // Console forms with garbage (same-origin, as a browser posts them).
    const forms = ['a=1', 'token=' + encodeURIComponent("' OR 1=1"), 'token=%', '%=%', '&&&', 'x'.repeat(100_000), Buffer.from([0xff, 0xfe, 0x3d, 0x00]).toString('latin1')];
    for (const p of ['/_vtr/console/tokens', '/_vtr/console/tokens/revoke', `/_vtr/console/sites/${encodeURIComponent("'x")}/rotate`, '/_vtr/console/nope', '/_vtr/demo/signup']) {
      for (const f of forms) {
        for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data; boundary=zz', 'multipart/form-data', 'text/plain']) {
          vtr.check(`POST ${p} ${type}`, await vtr.send('POST', p, { body: f, headers: { 'content-type': type, origin: vtr.server.origin } }));
        }
      }
    }
    await vtr.expectHealthy();
  });

  it('clock: hostile durations and timestamps never break the clock', async () => {
    const durations: unknown[] = ['1e308ms', '99999999999999999999d', '9'.repeat(400), 1e308, Number.MAX_SAFE_INTEGER, 2 ** 62, '1.7976931348623157e308', '-1s', '0', '1w1w1w', '1' + 'd'.repeat(1000), 'NaN', 'Infinity'];
    for (const d of durations) vtr.check(`advance ${String(d).slice(0, 30)}`, await vtr.send('POST', '/_vtr/api/clock/advance', { body: JSON.stringify({ duration: d }), headers: json }));
    for (const t of ['275760-09-13T00:00:00', '+275760-09-13T00:00:00', '9999-12-31T23:59:59.999999', '99999-01-01', '2030-02-30T00:00:00', '0000-00-00T00:00:00', '1970-01-01T00:00:00Z', '2040-01-01T00:00:00+99:99', 'now', '']) {
      vtr.check(`set ${t}`, await vtr.send('POST', '/_vtr/api/clock/set', { body: JSON.stringify({ timestamp: t }), headers: json }));
    }
    // Whatever was accepted, the clock still reads, and writes still work.
    const clock = await vtr.send('GET', '/_vtr/api/clock');
    vtr.check('clock', clock);
    expect(clock.status).toBe(200);
    const s = await vtr.send('POST', `/_vtr/api/sites/${vtr.siteId}/sessions`, { body: '{}', headers: json });
    vtr.check('create after clock moves', s);
    expect(s.status).toBe(201);
    const e = await vtr.send('POST', `/api/v1/session/${vtr.sessionId}/event`, { body: '{"name":"after-clock"}', headers: { ...json, ...vtr.bearer() } });
    vtr.check('event after clock moves', e);
    expect(e.status).toBe(200);
    await vtr.expectHealthy();
  });
});

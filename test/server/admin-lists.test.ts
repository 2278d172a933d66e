// What every management list shares: `?limit=` and `?site=` mean the same everywhere.
import { afterEach, describe, expect, it } from 'vitest';
import { harness, type Harness } from '../helpers/emulator.js';

let h: Harness;
afterEach(async () => {
  await h?.close();
});

const LISTS = ['/sessions', '/checks', '/logs', '/notifications', '/webhooks', '/views', '/tokens'];

describe('management API: lists', () => {
  it('lists: an unknown ?site= is a 404 on every site-scoped list, never an empty page', async () => {
    h = harness();
    for (const path of LISTS) {
      const r = await h.admin('GET', `${path}?site=site_nope`);
      expect(r.status, path).toBe(404);
      expect(r.body.code, path).toBe('not_found');
      expect((await h.admin('GET', `${path}?site=${h.site.site_id}`)).status, path).toBe(200);
    }
  });

  it('lists: an empty ?site=, ?before= or ?session= is a 400 naming it, not every site or the first page', async () => {
    h = harness();
    const cases = [...LISTS.map((path) => [path, 'site']), ...['/sessions', '/checks', '/logs'].map((path) => [path, 'before']), ['/checks', 'session']];
    for (const [path, field] of cases) {
      const r = await h.admin('GET', `${path}?${field}=`);
      expect(r.status, `${path}?${field}=`).toBe(400);
      expect(r.body, `${path}?${field}=`).toMatchObject({ code: 'invalid_request', field });
      expect(r.body.message, `${path}?${field}=`).toMatch(new RegExp(`^${field}: must not be empty`));
    }
  });

  it('lists: an unknown query parameter (a typo of where, limit) is a 400 naming it and the ones the list takes', async () => {
    h = harness();
    await h.createSession();
    const r = await h.admin('GET', '/sessions?filter=risk_level%20%3D%20invalid');
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'invalid_request', field: 'filter' });
    expect(r.body.message).toBe('filter: unknown query parameter; GET /_vtr/api/sessions takes limit, site, before, where');
    for (const path of [...LISTS, '/sites', `/sites/${h.site.site_id}/views`, `/sites/${h.site.site_id}/rules`, `/webhooks/wh_x/events`]) {
      const refused = await h.admin('GET', `${path}?limt=1`);
      expect(refused.status, path).toBe(400);
      expect(refused.body, path).toMatchObject({ code: 'invalid_request', field: 'limt', message: expect.stringMatching(/^limt: unknown query parameter; GET \/_vtr\/api\/\S+ takes /) });
    }
    expect((await h.admin('GET', '/sites?limit=1')).body.message).toBe('limit: unknown query parameter; GET /_vtr/api/sites takes no query parameters');
    // What the lists take is still read.
    expect((await h.admin('GET', '/sessions?where=page_views%20%3E%3D%201&limit=5')).body).toHaveLength(1);
  });

  it('lists: a query value that is not UTF-8 percent-encoding (?where=%FF) is a 400 naming it and saying so, not a filter error about "%"', async () => {
    h = harness();
    for (const query of ['where=%FF', 'where=risk_level%20%3D%20%E9', 'limit=%', 'site=%zz']) {
      const field = query.split('=')[0];
      const r = await h.admin('GET', `/sessions?${query}`);
      expect(r.status, query).toBe(400);
      expect(r.body, query).toMatchObject({ code: 'invalid_request', field });
      expect(r.body.message, query).toMatch(new RegExp(`^${field}: bad URL encoding .*percent-encode the value's UTF-8 bytes`));
    }
    // Encoded UTF-8 and a bare + (a space) are read as before.
    expect((await h.admin('GET', '/sessions?where=source+%3D+%22caf%C3%A9%22')).status).toBe(200);
  });

  it('lists: a query parameter given twice (?limit=1&limit=2) is a 400 naming it, not the first value read silently', async () => {
    h = harness();
    await h.createSession();
    for (const path of ['/sessions?limit=1&limit=2', '/checks?site=default&site=default', '/stream?types=session.&types=rule.']) {
      const field = path.split('?')[1].split('=')[0];
      const r = await h.admin('GET', path);
      expect(r.status, path).toBe(400);
      expect(r.body, path).toMatchObject({ code: 'invalid_request', field });
      expect(r.body.message, path).toMatch(new RegExp(`^${field}: given 2 times; GET /_vtr/api/\\S+ takes one value`));
    }
  });

  it('lists: ?admin_token= is taken on every list, as everywhere in the management API', async () => {
    h = harness({ adminToken: 'secret-admin' });
    for (const path of [...LISTS, '/sites']) {
      const r = await h.request(`/_vtr/api${path}?admin_token=secret-admin`);
      expect(r.status, path).toBe(200);
    }
  });

  it('lists: a bad ?limit= is a 400 naming the field', async () => {
    h = harness();
    for (const path of ['/sessions', '/checks', '/logs', '/notifications', '/webhooks', '/views']) {
      for (const limit of ['0', 'abc', '10001', '1.5']) {
        const r = await h.admin('GET', `${path}?limit=${limit}`);
        expect(r.status, `${path} ${limit}`).toBe(400);
        expect(r.body).toMatchObject({ code: 'invalid_request', field: 'limit' });
      }
    }
  });

  it('lists: webhook events and notifications page with ?before=<id>, like sessions, checks and logs', async () => {
    h = harness();
    const db = h.emulator.store.db;
    const site = h.site.site_id;
    const s = await h.createSession({});
    db.prepare("INSERT INTO webhooks VALUES ('wh_1', ?, 'http://127.0.0.1:9/x', 'enabled', 'whsec_abc', 0, NULL, '2026-01-01T00:00:00.000000')").run(site);
    for (let i = 1; i <= 5; i++) {
      // msg_1 and msg_2 were made by one change: the same created_us (the id orders them).
      db.prepare(`INSERT INTO webhook_events VALUES ('msg_${i}', 'wh_1', 'view_1', 'V', ?, ?, 'failed', 0, NULL, ${Math.max(i, 2)}, '2026-01-01T00:00:00.000000', '2026-01-01T00:00:00.000000', '{}')`).run(s.session_id, site);
      db.prepare(`INSERT INTO notifications VALUES ('ntf_${i}', 'webhook_event_failed', ?, 'wh_1', 'msg_${i}', 'o@example.com', 'S', 'B', '2026-01-01T00:00:00.000000', NULL, NULL, ${i}, 0)`).run(site);
    }
    const ids = async (path: string) => ((await h.admin<Array<Record<string, string>>>('GET', path)).body).map((r) => r.notification_id ?? r.webhook_event_id);
    expect(await ids('/webhooks/wh_1/events?limit=2')).toEqual(['msg_5', 'msg_4']);
    expect(await ids('/webhooks/wh_1/events?limit=2&before=msg_4')).toEqual(['msg_3', 'msg_2']);
    expect(await ids('/webhooks/wh_1/events?limit=1&before=msg_2')).toEqual(['msg_1']);
    expect(await ids('/notifications?limit=2&before=ntf_2')).toEqual(['ntf_1']);
    for (const path of ['/webhooks/wh_1/events?before=msg_nope', '/notifications?before=ntf_nope']) {
      const r = await h.admin('GET', path);
      expect(r.status, path).toBe(400);
      expect(r.body.field, path).toBe('before');
    }
  });

  it('lists: rows sharing a seq (two servers on one file, one microsecond) each appear once when paging with ?before=', async () => {
    h = harness();
    const db = h.emulator.store.db;
    const site = h.site.site_id;
    const other = (await h.admin('POST', '/sites', { name: 'B' })).body.site_id as string;
    const sessions: string[] = [];
    const checks: string[] = [];
    for (const siteId of [site, site, other, site, site]) {
      const s = await h.createSession({}, siteId);
      sessions.push(s.session_id);
      const secret = siteId === site ? h.site.secret_key : (await h.admin('GET', `/sites/${siteId}`)).body.secret_key;
      const c = await h.api('POST', '/event', { token: null, body: { secret_key: secret, email: 'a@example.com' } });
      expect(c.status).toBe(200);
      checks.push(c.body.id);
      await h.request(`/api/v1/nowhere/${sessions.length}`);
    }
    for (let i = 1; i <= 5; i++) {
      db.prepare(`INSERT INTO notifications VALUES ('ntf_${i}', 'webhook_event_failed', ?, NULL, NULL, NULL, 'S', 'B', '2026-01-01T00:00:00.000000', NULL, NULL, ?, 0)`)
        .run(i === 3 ? other : site, i === 1 ? 1 : i === 5 ? 3 : 2);
    }
    const logged = ((await h.admin<Array<{ request_id: string }>>('GET', '/logs?limit=100')).body).map((e) => e.request_id).reverse();
    expect(logged).toHaveLength(10);
    // All but the oldest and the newest share one seq.
    const tie = (table: string, key: string, ids: string[]) => {
      const seqOf = (id: string) => (db.prepare(`SELECT seq FROM ${table} WHERE ${key} = ?`).get(id) as { seq: number }).seq;
      for (const id of ids.slice(1, -1)) db.prepare(`UPDATE ${table} SET seq = ? WHERE ${key} = ?`).run(seqOf(ids[1]), id);
    };
    tie('sessions', 'session_id', sessions);
    tie('checks', 'check_id', checks);
    tie('request_log', 'request_id', logged);
    const ids = async (path: string, key: string) => (await h.admin<Array<Record<string, string>>>('GET', path)).body.map((r) => r[key]);
    const pageAll = async (path: string, key: string, limit: number) => {
      const out: string[] = [];
      for (let before = ''; ; ) {
        const page = await ids(`${path}${path.includes('?') ? '&' : '?'}limit=${limit}${before && `&before=${before}`}`, key);
        out.push(...page);
        if (page.length < limit) return out;
        before = page.at(-1)!;
      }
    };
    const newestFirst = (all: string[], siteIds: string[], only?: string) => all.filter((_, i) => !only || siteIds[i] === only).reverse();
    const siteOf = [site, site, other, site, site];
    const cases: Array<[path: string, key: string, expected: string[]]> = [
      ['/sessions', 'session_id', newestFirst(sessions, siteOf)],
      [`/sessions?site=${site}`, 'session_id', newestFirst(sessions, siteOf, site)],
      [`/sessions?where=${encodeURIComponent('page_views >= 1')}`, 'session_id', newestFirst(sessions, siteOf)],
      ['/checks', 'id', newestFirst(checks, siteOf)],
      [`/checks?site=${site}`, 'id', newestFirst(checks, siteOf, site)],
      ['/logs', 'request_id', [...logged].reverse()],
      ['/notifications', 'notification_id', ['ntf_5', 'ntf_4', 'ntf_3', 'ntf_2', 'ntf_1']],
      [`/notifications?site=${site}`, 'notification_id', ['ntf_5', 'ntf_4', 'ntf_2', 'ntf_1']],
    ];
    for (const [path, key, expected] of cases) {
      expect.soft(await ids(path, key), path).toEqual(expected);
      for (const limit of [1, 2]) expect.soft(await pageAll(path, key, limit), `${path} by ${limit}`).toEqual(expected);
    }
  });
});

describe('management API: checks of one session', () => {
  it('checks?session=: pages with ?before=<id> like every list, newest first', async () => {
    h = harness();
    const site = h.emulator.bootstrap!.site;
    const { session, probe_id } = h.emulator.deps.sessions.recordPageView(site, { url: 'https://shop.test/', ip: '192.0.2.10', fingerprint: 'fp_pages' });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(h.emulator.deps.checks.run(site, { probe_id, email: `c${i}@example.com` }).id);
    // Another session's check is never in this list.
    h.emulator.deps.checks.run(site, { email: 'other@example.com' });
    const seen: string[] = [];
    let before = '';
    for (let page = 0; page < 10; page++) {
      const r = await h.admin<Array<{ id: string }>>('GET', `/checks?session=${session.session_id}&limit=2${before ? `&before=${before}` : ''}`);
      expect(r.status).toBe(200);
      if (r.body.length === 0) break;
      seen.push(...r.body.map((c) => c.id));
      before = r.body.at(-1)!.id;
    }
    expect(seen).toEqual([...ids].reverse());
  });

  it('checks?session=: an unknown session is a 404 naming it, as ?site= is, not an empty list', async () => {
    h = harness();
    const r = await h.admin('GET', '/checks?session=ses_nope');
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ code: 'not_found', message: 'session ses_nope not found' });
    // A known session with no checks is an empty list.
    const session = await h.createSession();
    const none = await h.admin('GET', `/checks?session=${session.session_id}`);
    expect(none.status).toBe(200);
    expect(none.body).toEqual([]);
  });
});

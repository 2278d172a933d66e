import { afterEach, describe, expect, it } from 'vitest';
import { harnessPool, TIMESTAMP, type Harness } from '../helpers/emulator.js';

type Doc = { vtr_state_version: number; exported_at: string; schema_version: number; tables: Record<string, Array<Record<string, unknown>>> };
const pool = harnessPool();
const fresh = pool.fresh;
afterEach(pool.closeAll);

const exportOf = async (h: Harness) => (await h.admin<Doc>('GET', '/state')).body;

/** Sessions, a custom event, a check, a second site, a revoked token, and rows in every webhook table. */
async function populate(h: Harness): Promise<void> {
  const s = await h.createSession({ ip: '203.0.113.7', custom_events: ['signup'] });
  await h.createSession({ ip: '2001:db8::1', page_views: 3, duration: 90 });
  expect((await h.api('POST', '/event', { token: null, body: { secret_key: h.site.secret_key, email: 'x@mailinator.com', ip: '192.0.2.1' } })).status).toBe(200);
  const site2 = (await h.admin<{ site_id: string }>('POST', '/sites', { name: 'Shop', plan: 'free', country: 'DE' })).body;
  const tok = (await h.admin<{ token: string }>('POST', `/sites/${site2.site_id}/tokens`)).body;
  await h.admin('DELETE', `/tokens/${tok.token}`);
  // The webhook tables, written directly: the exporter reads every table generically.
  const db = h.emulator.store.db;
  const site = h.site.site_id;
  db.prepare("INSERT INTO saved_views VALUES ('view_1', ?, 'Bad', 'risk_level = invalid', 1, '2026-01-01T00:00:00.000000')").run(site);
  db.prepare("INSERT INTO view_matches VALUES ('view_1', ?, '2026-01-01T00:00:00.000000')").run(s.session_id);
  db.prepare("INSERT INTO webhooks VALUES ('wh_1', ?, 'http://127.0.0.1:9/x', 'enabled', 'whsec_abc', 2, NULL, '2026-01-01T00:00:00.000000')").run(site);
  db.prepare(`INSERT INTO webhook_events VALUES ('msg_1', 'wh_1', 'view_1', 'Bad', ?, ?, 'failed', 0, NULL, 1, '2026-01-01T00:00:00.000000', '2026-01-01T00:00:00.000000', '{"a":1.5}')`).run(s.session_id, site);
  db.prepare("INSERT INTO webhook_attempts VALUES ('msg_1', 1, 'auto', '2026-01-01T00:00:00.000000', 500, NULL, 12)").run();
  db.prepare("INSERT INTO notifications VALUES ('ntf_1', 'webhook_event_failed', ?, 'wh_1', 'msg_1', 'o@example.com', 'S', 'B', '2026-01-01T00:00:00.000000', NULL, NULL, 1, 0)").run(site);
}

describe('state export / import / reset', () => {
  it('exports a versioned document with every state table', async () => {
    const h = fresh();
    await populate(h);
    const doc = await exportOf(h);
    expect(doc.vtr_state_version).toBe(1);
    expect(doc.schema_version).toBeGreaterThanOrEqual(1);
    expect(doc.exported_at).toMatch(TIMESTAMP);
    for (const t of ['sites', 'access_tokens', 'sessions', 'probes', 'checks', 'saved_views', 'view_matches', 'webhooks', 'webhook_events', 'webhook_attempts', 'notifications', 'meta']) {
      expect(doc.tables, t).toHaveProperty(t);
    }
    expect(doc.tables).not.toHaveProperty('request_log');
    expect(doc.tables.sessions).toHaveLength(2);
    expect(doc.tables.checks).toHaveLength(1);
    expect(doc.tables.webhook_attempts).toEqual([expect.objectContaining({ webhook_event_id: 'msg_1', attempt: 1, status_code: 500 })]);
  });

  it('round trip: export → import elsewhere → export is byte-identical', async () => {
    const a = fresh();
    await populate(a);
    const first = await exportOf(a);
    const b = fresh();
    const put = await b.admin('PUT', '/state', first);
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ imported: true, tables: { sessions: 2, sites: 2 }, default_site_created: null });
    const second = await exportOf(b);
    expect(JSON.stringify(second.tables)).toBe(JSON.stringify(first.tables));
    // The imported state works: the old token reads the imported session.
    const sid = first.tables.sessions[0].session_id as string;
    expect((await b.api('GET', `/session/${sid}`, { token: a.token })).status).toBe(200);
    expect((await b.api('GET', `/session/${sid}`, { token: b.token })).status).toBe(401);
  });

  it('import: an export from before schema version 5 has its old tz names read back under the current ones', async () => {
    const a = fresh();
    const s = await a.createSession({ timezone: 'Asia/Kolkata' });
    const doc = await exportOf(a);
    doc.schema_version = 4;
    doc.tables.sessions = doc.tables.sessions.map((row) => ({ ...row, timezone: 'Asia/Calcutta' }));
    const b = fresh();
    expect((await b.admin('PUT', '/state', doc)).status).toBe(200);
    const found = await b.admin('GET', `/sessions?where=${encodeURIComponent('timezone = "Asia/Kolkata"')}`);
    expect(found.body).toEqual([expect.objectContaining({ session_id: s.session_id, timezone: 'Asia/Kolkata' })]);
  });

  it('import replaces everything, in one transaction (a bad file changes nothing)', async () => {
    const h = fresh();
    await populate(h);
    const before = await exportOf(h);
    await h.createSession();
    expect((await h.admin('PUT', '/state', before)).status).toBe(200);
    expect((await exportOf(h)).tables.sessions).toHaveLength(2);

    const broken = structuredClone(before);
    broken.tables.access_tokens.push({ token: 'at_test_orphan', site_id: 'site_missing', created_at: '2026-01-01T00:00:00.000000', revoked_at: null });
    const r = await h.admin('PUT', '/state', broken);
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/do not fit together|FOREIGN KEY/i);
    expect(JSON.stringify((await exportOf(h)).tables)).toBe(JSON.stringify(before.tables));
  });

  it('refuses newer or unknown formats with a clear error', async () => {
    const h = fresh();
    const doc = await exportOf(h);
    const cases: Array<[unknown, number, RegExp]> = [
      [{ ...doc, vtr_state_version: 2 }, 409, /vtr_state_version 2.*upgrade vtr/],
      [{ ...doc, schema_version: 999 }, 409, /schema_version 999/],
      [{ tables: {} }, 400, /not a vtr state export: vtr_state_version is missing/],
      [[1, 2], 400, /not a vtr state export/],
      [{ ...doc, vtr_state_version: 'one' }, 400, /not a version number/],
      [{ ...doc, schema_version: null }, 400, /^not a vtr state export: schema_version null is not a version number$/],
      [{ ...doc, schema_version: '5' }, 400, /^not a vtr state export: schema_version "5" is not a version number$/],
      [{ ...doc, schema_version: 2.5 }, 400, /schema_version 2.5 is not a version number/],
      [{ ...doc, tables: { bogus: [] } }, 400, /tables\.bogus: not a table/],
      [{ ...doc, tables: { sites: [{ nope: 1 }] } }, 400, /tables\.sites\[0\]: sites has no column "nope"/],
      [{ ...doc, tables: { meta: [{ key: 'k', value: { x: 1 } }] } }, 400, /tables\.meta\[0\]\.value: must be a string, number or null/],
    ];
    for (const [body, status, message] of cases) {
      const r = await h.admin('PUT', '/state', body);
      expect(r.status, JSON.stringify(r.body)).toBe(status);
      expect(r.body.message).toMatch(message);
    }
  });

  it('import: values later reads would choke on are refused, naming the row and column; nothing changes', async () => {
    const h = fresh();
    await populate(h);
    const doc = await exportOf(h);
    const edit = (table: string, patch: Record<string, unknown>) => ({ ...doc, tables: { ...doc.tables, [table]: doc.tables[table].map((r, i) => (i === 0 ? { ...r, ...patch } : r)) } });
    const rule = (patch: Record<string, unknown>): Doc => ({
      ...doc,
      tables: {
        ...doc.tables,
        rules: [{ site_id: doc.tables.sites[0].site_id, rule_id: 'rule_x', type: 'custom', name: 'x', filter: 'country_code = US', action: 'block', threshold: null, enabled: 1, created_at: '2026-11-21T09:00:00.000000', ...patch }],
      },
    });
    const cases: Array<[Doc, RegExp]> = [
      [edit('webhook_events', { payload: '{not json' }), /tables\.webhook_events\[0\]\.payload: must be JSON text \(an object\)/],
      [edit('sessions', { custom_events: 'purchase' }), /tables\.sessions\[0\]\.custom_events: must be JSON text \(an array of strings\)/],
      [edit('webhook_events', { next_attempt_us: 'soon' }), /webhook_events\[0\]\.next_attempt_us: must be a whole number/],
      [edit('webhook_events', { status: 'lost' }), /webhook_events\[0\]\.status: must be one of pending, retrying, delivered, failed/],
      [edit('sites', { plan: 'gold' }), /sites\[0\]\.plan: must be one of free, paid/],
      [edit('sites', { bounce_seconds: 'x' }), /sites\[0\]\.bounce_seconds: must be a whole number/],
      [edit('sites', { ip_allowlist: '{}' }), /sites\[0\]\.ip_allowlist: must be a JSON array/],
      [edit('sessions', { page_views: 'many' }), /sessions\[0\]\.page_views: must be a whole number/],
      [edit('sessions', { created_at: 'yesterday' }), /sessions\[0\]\.created_at: must be a timestamp/],
      [edit('saved_views', { filter: 'risk_level ==' }), /saved_views\[0\]\.filter: is not a filter that parses/],
      [edit('sites', { excluded_countries: '[1]' }), /sites\[0\]\.excluded_countries: must be a JSON array of strings/],
      [edit('sites', { excluded_countries: '["XX"]' }), /sites\[0\]\.excluded_countries: must hold ISO 3166-1 country codes \("XX" is not one\)/],
      [edit('sites', { ip_allowlist: '["1.2.3"]' }), /sites\[0\]\.ip_allowlist: must hold IP addresses or CIDR ranges \("1\.2\.3" is not one\)/],
      [edit('sites', { country: 'ZZZ' }), /sites\[0\]\.country: must be a two-letter ISO 3166-1 country code/],
      [rule({ filter: 'country_code = = (' }), /rules\[0\]\.filter: is not a filter that parses/],
      [rule({ action: 'explode' }), /rules\[0\]\.action: must be one of allow, allow_review, review, block_review, block/],
      [rule({ type: 'weird' }), /rules\[0\]\.type: must be one of allowlist, smart, custom/],
      [rule({ filter: null }), /rules\[0\]\.filter: a custom rule needs one/],
      [rule({ enabled: 7 }), /rules\[0\]\.enabled: must be 0 or 1/],
      [rule({ name: '' }), /rules\[0\]\.name: must not be empty \(rule rule_x of site site_\w+\)$/],
      [rule({ name: '   ' }), /rules\[0\]\.name: must not be empty or blank \(rule rule_x of site site_\w+\)$/],
      [rule({ name: 'x'.repeat(201) }), /rules\[0\]\.name: must have at most 200 characters \(rule rule_x of site site_\w+\)$/],
      [rule({ type: 'smart', rule_id: 'bot', filter: null, name: '\t' }), /rules\[0\]\.name: must not be empty or blank \(rule bot of site site_\w+\)$/],
      [edit('saved_views', { name: '' }), /saved_views\[0\]\.name: must not be empty$/],
      [edit('saved_views', { name: 'x'.repeat(201) }), /saved_views\[0\]\.name: must have at most 200 characters$/],
      [edit('sites', { name: '' }), /sites\[0\]\.name: must not be empty$/],
      [edit('sites', { name: 'x'.repeat(201) }), /sites\[0\]\.name: must have at most 200 characters$/],
      [rule({ rule_id: 'bot' }), /rules\[0\]\.rule_id: a custom rule's id starts with rule_/],
      [rule({ type: 'smart', rule_id: 'bots', filter: null }), /rules\[0\]\.rule_id: not a smart rule; those are bot, anonymous/],
      [rule({ type: 'smart', rule_id: 'repeat_device', filter: null, threshold: null }), /rules\[0\]\.threshold: repeat_device needs a whole number from 1 to 1000000/],
      [rule({ type: 'smart', rule_id: 'emails_per_device', filter: null, threshold: 0 }), /rules\[0\]\.threshold: emails_per_device needs a whole number/],
      [rule({ type: 'smart', rule_id: 'bot', filter: null, threshold: 5 }), /rules\[0\]\.threshold: must be null: bot takes none/],
      [rule({ type: 'smart', rule_id: 'bot' }), /rules\[0\]\.filter: must be null: the smart rule bot has a fixed condition/],
      [rule({ type: 'allowlist', rule_id: 'allowlist', filter: null, action: 'block' }), /rules\[0\]\.type: the allowlist is not stored as a rule/],
      [edit('webhooks', { url: 'not a url' }), /webhooks\[0\]\.url: must be an absolute http/],
      [edit('webhooks', { secret: 'nope' }), /webhooks\[0\]\.secret: must be a whsec_ secret/],
      [edit('webhook_events', { webhook_id: 'wh_gone' }), /the rows do not fit together: a row of tables\.webhook_events \(webhook_id "wh_gone"\) refers to no row of tables\.webhooks/],
      [edit('sites', { site_id: null }), /sites\[0\]\.site_id: the primary key must be given/],
      [edit('webhook_events', { status: 'delivered', next_attempt_us: 1 }), /webhook_events\[0\]\.next_attempt_us: must be null for a delivered event/],
      [edit('webhook_events', { status: 'pending', next_attempt_us: null }), /webhook_events\[0\]\.next_attempt_us: a pending event needs the time of its next attempt/],
      [edit('webhook_events', { status: 'retrying', next_attempt_us: null }), /webhook_events\[0\]\.next_attempt_us: a retrying event needs the time of its next attempt/],
      [edit('notifications', { send_pending: 2 }), /notifications\[0\]\.send_pending: must be 0 or 1$/],
      [edit('notifications', { send_pending: 1, sent_at: '2026-01-01T00:00:01.000000' }), /notifications\[0\]\.send_pending: must be 0 for a notification already sent$/],
      [{ ...doc, exported_at: 'yesterday' }, /^exported_at: must be a timestamp like 2026-11-21T09:00:00\.000000/],
      [{ ...doc, tables: { ...doc.tables, meta: [...(doc.tables.meta ?? []).filter((r) => r.key !== 'clock_offset_ms'), { key: 'clock_offset_ms', value: '1e20' }] } }, /meta\[\d+\]\.value: the clock offset must be a whole number/],
    ];
    for (const [body, message] of cases) {
      const r = await h.admin('PUT', '/state', body);
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body.message).toMatch(message);
    }
    expect(JSON.stringify((await exportOf(h)).tables)).toBe(JSON.stringify(doc.tables));
  });

  it('import: a column left out or a row twice is refused naming the row, the column and what to do, not with SQLite\'s words; nothing changes', async () => {
    const h = fresh();
    await populate(h);
    const doc = await exportOf(h);
    const { plan: _plan, ...noPlan } = doc.tables.sites[0];
    const cases: Array<[Doc, RegExp]> = [
      [{ ...doc, tables: { ...doc.tables, sites: [noPlan, ...doc.tables.sites.slice(1)] } }, /^tables\.sites\[0\]\.plan: must be given \(every sites row has one; null is not a value here\)$/],
      [{ ...doc, tables: { ...doc.tables, sessions: [...doc.tables.sessions, doc.tables.sessions[0]] } },
        new RegExp(`^tables\\.sessions\\[${doc.tables.sessions.length}\\]\\.session_id: ${doc.tables.sessions[0].session_id} is another row's too: each sessions row needs its own session_id \\(a row copied\\?\\)$`)],
      [{ ...doc, tables: { ...doc.tables, sites: [doc.tables.sites[0], { ...doc.tables.sites[1], site_key: doc.tables.sites[0].site_key }] } },
        /^tables\.sites\[1\]\.site_key: pk_test_\w+ is another row's too: each sites row needs its own site_key/],
    ];
    for (const [body, message] of cases) {
      const r = await h.admin('PUT', '/state', body);
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body.message).toMatch(message);
    }
    expect(JSON.stringify((await exportOf(h)).tables)).toBe(JSON.stringify(doc.tables));
  });

  it('import: site and view names of only white space, which the API once took, still import as they were', async () => {
    const h = fresh();
    await populate(h);
    const doc = await exportOf(h);
    const blank = (rows: Array<Record<string, unknown>>) => rows.map((r, i) => (i === 0 ? { ...r, name: '  ' } : r));
    const file = { ...doc, tables: { ...doc.tables, sites: blank(doc.tables.sites), saved_views: blank(doc.tables.saved_views) } };
    const r = await h.admin('PUT', '/state', file);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const back = await exportOf(h);
    expect([back.tables.sites[0].name, back.tables.saved_views[0].name]).toEqual(['  ', '  ']);
  });

  it('import: a system clock behind the file\'s exported_at is said (clock_behind_ms): its rows lie in the future and that clock cannot move', async () => {
    const h = fresh();
    const doc = await exportOf(h);
    const ahead = new Date(Date.now() + 86_400_000).toISOString().replace('Z', '000');
    const r = await h.admin<{ clock_behind_ms: number | null }>('PUT', '/state', { ...doc, exported_at: ahead });
    expect(r.status).toBe(200);
    expect(r.body.clock_behind_ms).toBeGreaterThan(86_000_000);
    expect(r.body.clock_behind_ms).toBeLessThanOrEqual(86_400_000);
    const now = await h.admin<{ clock_behind_ms: number | null }>('PUT', '/state', doc);
    expect(now.body.clock_behind_ms).toBeNull();
  });

  it('a file without sites gets the default site, like a first start', async () => {
    const h = fresh();
    const r = await h.admin('PUT', '/state', { vtr_state_version: 1, schema_version: 1, tables: {} });
    expect(r.status).toBe(200);
    expect(r.body.default_site_created).toMatch(/^site_/);
    expect((await h.admin('GET', '/sites/default')).status).toBe(200);
  });

  it('import: a hand-written file without schema_version is read as this version', async () => {
    const h = fresh();
    const r = await h.admin('PUT', '/state', { vtr_state_version: 1, tables: {} });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  });

  it('accepts imports bigger than the 1 MiB public body limit', async () => {
    const h = fresh();
    const doc = await exportOf(h);
    doc.tables.meta.push({ key: 'padding', value: 'x'.repeat(3 * 1024 * 1024) });
    expect((await h.admin('PUT', '/state', doc)).status).toBe(200);
    expect((await h.api('POST', '/session/x/event', { body: { name: 'x'.repeat(2 * 1024 * 1024) } })).status).toBe(413);
  });

  it('reset: empties everything; the default site comes back with the same id, keys and access token', async () => {
    const h = fresh();
    await populate(h);
    await h.admin('PATCH', `/sites/${h.site.site_id}`, { name: 'Renamed', plan: 'free' });
    await h.request('/api/v1/nowhere');
    const r = await h.admin('POST', '/state/reset');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ reset: true, site: { ...h.site, name: 'Local site' }, access_token: h.token });
    const doc = await exportOf(h);
    expect(doc.tables.sites).toHaveLength(1);
    expect(doc.tables.sites[0]).toMatchObject({ ...h.site, name: 'Local site', plan: 'paid', country: 'US', is_default: 1 });
    expect(doc.tables.access_tokens).toEqual([expect.objectContaining({ token: h.token, site_id: h.site.site_id, revoked_at: null })]);
    expect(doc.tables.sessions).toEqual([]);
    expect(doc.tables.webhooks).toEqual([]);
    expect((await h.admin('GET', '/logs')).body).toEqual([]);
    // The keys a script read before the reset still work.
    const s = await h.createSession();
    expect((await h.api('GET', `/session/${s.session_id}`)).status).toBe(200);
    expect((await h.api('POST', '/event', { token: null, body: { secret_key: h.site.secret_key, ip: '192.0.2.1' } })).status).toBe(200);
  });

  it('reset: a failure part way (the default site cannot be written back) answers an error and changes nothing', async () => {
    const h = fresh();
    await populate(h);
    const before = await exportOf(h);
    // SQLite refusing the default site's row, after every table was emptied in the same request.
    h.emulator.store.db.exec("CREATE TEMP TRIGGER refuse_site BEFORE INSERT ON main.sites BEGIN SELECT RAISE(ABORT, 'refused'); END");
    const r = await h.admin('POST', '/state/reset');
    expect(r.status).toBeGreaterThanOrEqual(400);
    h.emulator.store.db.exec('DROP TRIGGER refuse_site');
    const after = await exportOf(h);
    expect(JSON.stringify(after.tables)).toBe(JSON.stringify(before.tables));
    expect((await h.api('POST', '/event', { token: null, body: { secret_key: h.site.secret_key, ip: '192.0.2.1' } })).status).toBe(200);
  });

  it('import: a file without sites whose default site cannot be written changes nothing', async () => {
    const h = fresh();
    await populate(h);
    const before = await exportOf(h);
    h.emulator.store.db.exec("CREATE TEMP TRIGGER refuse_site BEFORE INSERT ON main.sites BEGIN SELECT RAISE(ABORT, 'refused'); END");
    const r = await h.admin('PUT', '/state', { vtr_state_version: 1, schema_version: 1, tables: {} });
    expect(r.status).toBeGreaterThanOrEqual(400);
    h.emulator.store.db.exec('DROP TRIGGER refuse_site');
    expect(JSON.stringify((await exportOf(h)).tables)).toBe(JSON.stringify(before.tables));
  });

  it('reset: the default token is valid again if it was revoked; the site\'s other tokens go', async () => {
    const h = fresh();
    const extra = (await h.admin<{ token: string }>('POST', `/sites/${h.site.site_id}/tokens`)).body;
    await h.admin('DELETE', `/tokens/${h.token}`);
    const r = await h.admin('POST', '/state/reset');
    expect(r.body.access_token).toBe(h.token);
    const tokens = (await h.admin<Array<{ token: string; revoked_at: string | null }>>('GET', `/sites/${h.site.site_id}/tokens`)).body;
    expect(tokens.map((t) => [t.token, t.revoked_at])).toEqual([[h.token, null]]);
    expect(tokens.map((t) => t.token)).not.toContain(extra.token);
  });

  it('reset: after the default site was deleted, the site that took its place keeps its keys', async () => {
    const h = fresh();
    const shop = (await h.admin<{ site_id: string; site_key: string; secret_key: string }>('POST', '/sites', { name: 'Shop' })).body;
    const tok = (await h.admin<{ token: string }>('POST', `/sites/${shop.site_id}/tokens`)).body;
    expect((await h.admin('DELETE', `/sites/${h.site.site_id}`)).status).toBe(200);
    const r = await h.admin('POST', '/state/reset');
    expect(r.body).toMatchObject({ site: { site_id: shop.site_id, site_key: shop.site_key, secret_key: shop.secret_key, name: 'Local site' }, access_token: tok.token });
    const s = await h.createSession({}, shop.site_id);
    expect((await h.api('GET', `/session/${s.session_id}`, { token: tok.token })).status).toBe(200);
  });

  it('a manual clock never goes back: an import with a later offset moves it forward', async () => {
    const h = fresh({ clock: 'manual' });
    const doc = await exportOf(h);
    doc.tables.meta = [{ key: 'clock_offset_ms', value: String(86_400_000) }];
    expect((await h.admin('PUT', '/state', doc)).status).toBe(200);
    expect((await h.admin('GET', '/clock')).body.offset_ms).toBe(86_400_000);
    doc.tables.meta = [{ key: 'clock_offset_ms', value: '5' }];
    expect((await h.admin('PUT', '/state', doc)).status).toBe(200);
    expect((await h.admin('GET', '/clock')).body.offset_ms).toBe(86_400_000);
    expect((await exportOf(h)).tables.meta).toContainEqual({ key: 'clock_offset_ms', value: '86400000' });
  });

  it('import: a file written under another clock mode moves a manual or frozen clock forward to its exported_at, never leaving its rows in the future', async () => {
    const DAY = 86_400_000;
    const manual = fresh({ clock: 'manual' });
    await manual.admin('POST', '/clock/advance', { duration: 3 * DAY });
    const ahead = await exportOf(manual);
    const frozen = fresh({ clock: 'frozen' });
    expect((await frozen.admin('PUT', '/state', ahead)).status).toBe(200);
    const now = (await frozen.admin('GET', '/clock')).body.now as string;
    expect(now >= ahead.exported_at.slice(0, 23)).toBe(true);

    const later = fresh({ clock: 'frozen' });
    await later.admin('POST', '/clock/advance', { duration: 30 * DAY });
    const file = await exportOf(later);
    const into = fresh({ clock: 'manual' });
    expect((await into.admin('PUT', '/state', file)).status).toBe(200);
    expect((await into.admin('GET', '/clock')).body.offset_ms).toBeGreaterThanOrEqual(30 * DAY - 60_000);
  });
});

// Newest-first lists page by (seq, rowid): seq is not unique (two `vtr serve` on one file can create
// two sessions or checks in the same µs, and hand out the same request-log seq), and a page that
// ends on one of two rows sharing a seq must not lose the other.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createStore, type Store } from '../../src/store/index.js';
import { emptySession } from '../../src/sessions/service.js';
import type { Site } from '../../src/domain/site.js';
import type { SessionRecord } from '../../src/store/index.js';
import type { PageCursor } from '../../src/store/paging.js';

let dir: string;
let store: Store;
let other: Store | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'vtr-paging-'));
  store = createStore({ path: join(dir, 'vtr.db') });
});
afterEach(() => {
  other?.close();
  other = undefined;
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const site = (id: string): Site => ({
  site_id: id, name: `Site ${id}`, plan: 'paid', country: 'US', owner_email: null, site_key: `pk_test_${id}`, secret_key: `sk_test_${id}`,
  conversion_events: ['conversion'], bounce_seconds: 10, excluded_countries: [], ip_allowlist: [], is_default: false,
  created_at: '2026-11-21T09:00:00.000000',
});
const AT = '2026-11-21T09:00:00.000000';
const session = (s: Site, id: string, seq: number): SessionRecord => ({
  session: emptySession(s, id, AT), first_seen_us: seq, last_seen_us: seq, click_id: null, check_risks: [], seq,
});

type Page = { limit: number; before?: PageCursor };
/** Every id, paging with `limit` the way the API does: the next page is `before` the last id of this one. */
function pageAll<T>(limit: number, list: (q: Page) => T[], id: (row: T) => string, cursor: (id: string) => PageCursor | null): string[] {
  const out: string[] = [];
  let before: PageCursor | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const page = list({ limit, before }).map(id);
    out.push(...page);
    if (page.length < limit) return out;
    before = cursor(page.at(-1)!)!;
    expect(before, `cursor of ${page.at(-1)}`).toBeTruthy();
  }
  throw new Error('paging never ends');
}

/** Pages by 1, 2 and 3: each gives every row exactly once, in the order of one big page. */
function expectExactPaging<T>(expected: string[], list: (q: Page) => T[], id: (row: T) => string, cursor: (id: string) => PageCursor | null) {
  expect(list({ limit: 1000 }).map(id)).toEqual(expected);
  for (const limit of [1, 2, 3]) expect(pageAll(limit, list, id, cursor), `limit ${limit}`).toEqual(expected);
}

describe('store: paging', () => {
  it('sessions.list: sessions two connections wrote with one seq each appear once, newest written first', () => {
    other = createStore({ path: store.path });
    const a = site('a');
    const b = site('b');
    store.sites.insert(a);
    store.sites.insert(b);
    // Two servers on one file, each creating sessions in the same microseconds.
    store.sessions.insert(session(a, 's1', 100));
    other.sessions.insert(session(a, 's2', 200));
    store.sessions.insert(session(b, 'b1', 200));
    store.sessions.insert(session(a, 's3', 200));
    other.sessions.insert(session(a, 's4', 200));
    other.sessions.insert(session(a, 's5', 300));
    for (const s of [store, other]) {
      expectExactPaging(['s5', 's4', 's3', 'b1', 's2', 's1'], (q) => s.sessions.list(q), (r) => r.session_id, s.sessions.cursor);
      expectExactPaging(['s5', 's4', 's3', 's2', 's1'], (q) => s.sessions.list({ ...q, siteId: 'a' }), (r) => r.session_id, s.sessions.cursor);
    }
    expect(store.sessions.cursor('nope')).toBeNull();
  });

  it('checks.list: checks sharing a seq each appear once, with and without a site', () => {
    store.sites.insert(site('a'));
    store.sites.insert(site('b'));
    const check = (id: string, siteId: string, seq: number) =>
      store.checks.insert({ check_id: id, site_id: siteId, session_id: null, risk_level: 'normal', created_at: AT, result: { check_id: id }, seq });
    check('c1', 'a', 7);
    check('c2', 'a', 9);
    check('d1', 'b', 9);
    check('c3', 'a', 9);
    check('c4', 'a', 11);
    expectExactPaging(['c4', 'c3', 'd1', 'c2', 'c1'], (q) => store.checks.list(q), (r) => r.check_id, store.checks.cursor);
    expectExactPaging(['c4', 'c3', 'c2', 'c1'], (q) => store.checks.list({ ...q, siteId: 'a' }), (r) => r.check_id, store.checks.cursor);
    expect(store.checks.cursor('nope')).toBeNull();
  });

  it('requestLog.list: entries two processes gave the same seq each appear once, with and without a site', () => {
    other = createStore({ path: store.path });
    const entry = (id: string, seq: number, siteId: string | null = 'a') => ({
      request_id: id, method: 'GET', path: `/api/v1/${id}`, status: 200, duration_ms: 1, site_id: siteId,
      request_body: null, response_body: null, created_at: AT, seq,
    });
    // Each process counts from the log's max seq when it starts: both hand out 1, 2, 3.
    store.requestLog.insertMany([entry('r1', 1), entry('r2', 2)]);
    other.requestLog.insertMany([entry('q1', 1), entry('q2', 2, null), entry('q3', 3)]);
    store.requestLog.insertMany([entry('r3', 3)]);
    expectExactPaging(['r3', 'q3', 'q2', 'r2', 'q1', 'r1'], (q) => store.requestLog.list(q), (r) => r.request_id, store.requestLog.cursor);
    expectExactPaging(['r3', 'q3', 'r2', 'q1', 'r1'], (q) => store.requestLog.list({ ...q, siteId: 'a' }), (r) => r.request_id, store.requestLog.cursor);
    expect(store.requestLog.cursor('nope')).toBeNull();
  });

  it('notifications.list: notifications written in one µs (an event failing and its webhook disabled) each appear once', () => {
    const note = (id: string, seq: number, siteId = 'a') =>
      store.notifications.insert({
        notification_id: id, kind: 'webhook_event_failed', site_id: siteId, webhook_id: null, webhook_event_id: null,
        to: null, subject: 'S', body: 'B', created_at: AT, sent_at: null, send_error: null,
      }, seq);
    note('n1', 5);
    note('n2', 8);
    note('m1', 8, 'b');
    note('n3', 8);
    expectExactPaging(['n3', 'm1', 'n2', 'n1'], (q) => store.notifications.list(q), (r) => r.notification_id, store.notifications.cursor);
    expectExactPaging(['n3', 'n2', 'n1'], (q) => store.notifications.list({ ...q, siteId: 'a' }), (r) => r.notification_id, store.notifications.cursor);
    expect(store.notifications.cursor('nope')).toBeNull();
  });

  it('list queries: read newest first off the seq indexes, with no temp b-tree where there was none', () => {
    store.sites.insert(site('a'));
    store.sessions.insert(session(site('a'), 's1', 1));
    store.checks.insert({ check_id: 'c1', site_id: 'a', session_id: null, risk_level: 'normal', created_at: AT, result: {}, seq: 1 });
    store.requestLog.insertMany([{ request_id: 'r1', method: 'GET', path: '/', status: 200, duration_ms: 1, site_id: 'a', request_body: null, response_body: null, created_at: AT, seq: 1 }]);
    store.notifications.insert({ notification_id: 'n1', kind: 'webhook_event_failed', site_id: 'a', webhook_id: null, webhook_event_id: null, to: null, subject: 'S', body: 'B', created_at: AT, sent_at: null, send_error: null }, 1);
    const lists = {
      sessions: (q: Page & { siteId?: string }) => store.sessions.list(q),
      checks: (q: Page & { siteId?: string }) => store.checks.list(q),
      request_log: (q: Page & { siteId?: string }) => store.requestLog.list(q),
      notifications: (q: Page & { siteId?: string }) => store.notifications.list(q),
    };
    const cursors = { sessions: store.sessions.cursor('s1')!, checks: store.checks.cursor('c1')!, request_log: store.requestLog.cursor('r1')!, notifications: store.notifications.cursor('n1')! };
    // The SQL a list runs, caught as it is prepared (each query shape runs once here, so none comes from a statement cache).
    const plan = (table: keyof typeof lists, q: { siteId?: string; before?: boolean }): string => {
      const prepared: string[] = [];
      const prepare = store.db.prepare.bind(store.db);
      const spy = vi.spyOn(store.db, 'prepare').mockImplementation(((sql: string) => (prepared.push(sql), prepare(sql))) as typeof store.db.prepare);
      try {
        lists[table]({ limit: 10, siteId: q.siteId, before: q.before ? cursors[table] : undefined });
      } finally {
        spy.mockRestore();
      }
      const sql = prepared.find((s) => s.includes('ORDER BY seq DESC'));
      expect(sql, `${table} list SQL`).toBeTruthy();
      const params = [...(q.siteId ? [q.siteId] : []), ...(q.before ? [cursors[table].seq, cursors[table].rowid] : []), 10];
      return (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail).join('; ');
    };
    // Before ties were broken, `seq < ?` had the same plans: (site_id, seq) / (seq) index searches,
    // and a sort only for the checks of all sites and for notifications (no seq index; small tables).
    const expected: Record<keyof typeof lists, string[]> = {
      sessions: [
        'SCAN sessions USING INDEX sessions_seq',
        'SEARCH sessions USING INDEX sessions_seq (seq<?)',
        'SEARCH sessions USING INDEX sessions_site_seq (site_id=?)',
        'SEARCH sessions USING INDEX sessions_site_seq (site_id=? AND seq<?)',
      ],
      checks: [
        'SCAN checks; USE TEMP B-TREE FOR ORDER BY',
        'SCAN checks; USE TEMP B-TREE FOR ORDER BY',
        'SEARCH checks USING INDEX checks_site_seq (site_id=?)',
        'SEARCH checks USING INDEX checks_site_seq (site_id=? AND seq<?)',
      ],
      request_log: [
        'SCAN request_log USING INDEX request_log_seq',
        'SEARCH request_log USING INDEX request_log_seq (seq<?)',
        'SCAN request_log USING INDEX request_log_seq',
        'SEARCH request_log USING INDEX request_log_seq (seq<?)',
      ],
      notifications: [
        'SCAN notifications; USE TEMP B-TREE FOR ORDER BY',
        'SCAN notifications; USE TEMP B-TREE FOR ORDER BY',
        'SCAN notifications; USE TEMP B-TREE FOR ORDER BY',
        'SCAN notifications; USE TEMP B-TREE FOR ORDER BY',
      ],
    };
    for (const table of Object.keys(lists) as Array<keyof typeof lists>) {
      const plans = [plan(table, {}), plan(table, { before: true }), plan(table, { siteId: 'a' }), plan(table, { siteId: 'a', before: true })];
      expect(plans, table).toEqual(expected[table]);
    }
  });
});

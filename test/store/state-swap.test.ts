import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { createStore, type Store } from '../../src/store/index.js';
import type { SessionRecord } from '../../src/store/index.js';
import { emptySession } from '../../src/sessions/service.js';
import type { Site } from '../../src/domain/site.js';
import { readStateDocument } from '../../src/state/document-stream.js';
import { tempDir } from '../helpers/vtr-process.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

let store: Store;
beforeEach(() => {
  const dir = tempDir('vtr-swap-');
  dirs.push(dir);
  store = createStore({ path: join(dir, 'vtr.db') });
});
afterEach(() => store.close());

const AT = '2026-11-21T09:00:00.000000';
const site = (id: string, extra: Partial<Site> = {}): Site => ({
  site_id: id, name: `Site ${id}`, plan: 'paid', country: 'US', owner_email: null, site_key: `pk_test_${id}`, secret_key: `sk_test_${id}`,
  conversion_events: ['conversion'], bounce_seconds: 10, excluded_countries: [], ip_allowlist: [], is_default: false, created_at: AT, ...extra,
});
const record = (s: Site, id: string, seq: number): SessionRecord => ({
  session: emptySession(s, id, AT), first_seen_us: seq, last_seen_us: seq, click_id: null, check_risks: [], seq,
});

/** A site with sessions, a webhook event claimed by a sender, a notification claimed by a mailer. */
function populate(s: Store, prefix: string) {
  const a = site(`${prefix}site`, { is_default: true });
  s.sites.insert(a);
  for (let i = 0; i < 20; i++) s.sessions.insert(record(a, `${prefix}s${i}`, i + 1));
  const run = (sql: string, ...values: unknown[]) => s.db.prepare(sql).run(...values);
  run("INSERT INTO webhooks (webhook_id, site_id, url, status, secret, created_at) VALUES (?, ?, 'http://127.0.0.1:9/', 'enabled', ?, ?)", `${prefix}wh`, a.site_id, `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`, AT);
  run(
    "INSERT INTO webhook_events (webhook_event_id, webhook_id, saved_view_id, saved_view_name, session_id, site_id, status, auto_retries_remaining, next_attempt_us, created_us, created_at, triggered_at, payload) VALUES (?, ?, 'v', 'v', ?, ?, 'pending', 5, 1, 1, ?, ?, '{}')",
    `${prefix}ev`, `${prefix}wh`, `${prefix}s0`, a.site_id, AT, AT,
  );
  run("INSERT INTO webhook_claims (webhook_event_id, owner, host, pid, expires_ms) VALUES (?, 'o', 'h', 1, 1)", `${prefix}ev`);
  run("INSERT INTO notifications (notification_id, kind, site_id, subject, body, created_at, seq) VALUES (?, 'webhook_disabled', ?, 's', 'b', ?, 1)", `${prefix}n`, a.site_id, AT);
  run("INSERT INTO notification_claims (notification_id, owner, host, pid, expires_ms) VALUES (?, 'o', 'h', 1, 1)", `${prefix}n`);
}

const schema = (s: Store) => s.db.prepare('SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name').all();
const state = (s: Store) => JSON.stringify(s.state.export(AT));
const count = (s: Store, table: string) => (s.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

async function stagedImport(s: Store, doc: unknown) {
  const staged = s.state.staged();
  await readStateDocument((async function* () { yield JSON.stringify(doc); })(), staged.sink);
  return staged.commit();
}

/** The document of another database holding `prefix`'s rows. */
function documentOf(prefix: string) {
  const other = createStore({ path: ':memory:' });
  try {
    populate(other, prefix);
    return other.state.export(AT);
  } finally {
    other.close();
  }
}

describe('store: the swap of a state import', () => {
  it('state import: the live tables keep their indexes exactly, references are enforced again after, claims go with what they claim', async () => {
    populate(store, 'old-');
    const before = schema(store);
    const doc = documentOf('new-');
    const { counts } = await stagedImport(store, doc);
    expect(counts.sessions).toBe(20);
    expect(schema(store)).toEqual(before);
    expect(JSON.parse(state(store)).tables).toEqual(doc.tables);
    // A claim on a webhook event or a notification the import replaced is gone, as its row is.
    expect(count(store, 'webhook_claims')).toBe(0);
    expect(count(store, 'notification_claims')).toBe(0);
    expect(store.db.pragma('foreign_keys', { simple: true })).toBe(1);
    // The store's word for a FOREIGN KEY failure.
    expect(() => store.db.prepare("INSERT INTO probes (probe_id, site_id, session_id, created_at, created_us) VALUES ('p', 'nowhere', 'none', ?, 1)").run(AT)).toThrow(/removed meanwhile/);
    // The indexes answer as before: a session is found by its site's index.
    expect(store.sessions.list({ siteId: 'new-site' }).map((x) => x.session_id)).toContain('new-s3');
  });

  it('state import: the import of a document in memory keeps the indexes and references too', () => {
    populate(store, 'old-');
    const before = schema(store);
    const doc = documentOf('new-');
    store.state.import(doc);
    expect(schema(store)).toEqual(before);
    expect(count(store, 'webhook_claims')).toBe(0);
    expect(store.db.pragma('foreign_keys', { simple: true })).toBe(1);
  });

  it('state import: one whose rows do not fit together changes nothing, rows, indexes and claims alike', async () => {
    populate(store, 'old-');
    const before = { schema: schema(store), state: state(store), claims: count(store, 'webhook_claims') + count(store, 'notification_claims') };
    const doc = documentOf('new-');
    doc.tables.probes = [{ probe_id: 'p1', site_id: 'new-site', session_id: 'no-such-session', ip: null, created_at: AT, created_us: 1 }];
    await expect(stagedImport(store, doc)).rejects.toThrow(/a row of tables\.probes \(session_id "no-such-session"\) refers to no row of tables\.sessions/);
    expect(() => store.state.import(doc)).toThrow(/refers to no row of tables\.sessions/);
    expect({ schema: schema(store), state: state(store), claims: count(store, 'webhook_claims') + count(store, 'notification_claims') }).toEqual(before);
    expect(store.db.pragma('foreign_keys', { simple: true })).toBe(1);
  });
});

// GET /_vtr/api/state is sent as a stream of bytes written row by row (src/store/state-export.ts):
// the document must be the one the rows as objects give, in the format state files always had.
import { afterEach, describe, expect, it } from 'vitest';
import { harnessPool, type Harness } from '../helpers/emulator.js';

const pool = harnessPool();
afterEach(pool.closeAll);

/** Sessions, a check, a second site, a revoked token, rows of the webhook tables, awkward strings. */
async function populate(h: Harness): Promise<void> {
  const s = await h.createSession({ ip: '203.0.113.7', custom_events: ['signup'] });
  await h.createSession({ ip: '2001:db8::1', page_views: 3, duration: 90 });
  expect((await h.api('POST', '/event', { token: null, body: { secret_key: h.site.secret_key, email: 'x@mailinator.com', ip: '192.0.2.1' } })).status).toBe(200);
  const site2 = (await h.admin<{ site_id: string }>('POST', '/sites', { name: 'Shop "Ünïcode" 🛒\u2028\\', plan: 'free', country: 'DE' })).body;
  const tok = (await h.admin<{ token: string }>('POST', `/sites/${site2.site_id}/tokens`)).body;
  await h.admin('DELETE', `/tokens/${tok.token}`);
  const db = h.emulator.store.db;
  const site = h.site.site_id;
  db.prepare("INSERT INTO webhooks VALUES ('wh_1', ?, 'http://127.0.0.1:9/x', 'enabled', 'whsec_abc', 2, NULL, '2026-01-01T00:00:00.000000')").run(site);
  db.prepare("INSERT INTO saved_views VALUES ('view_1', ?, 'Bad\nline', 'risk_level = invalid', 1, '2026-01-01T00:00:00.000000')").run(site);
  db.prepare(`INSERT INTO webhook_events VALUES ('msg_1', 'wh_1', 'view_1', 'Bad', ?, ?, 'failed', 0, NULL, 1, '2026-01-01T00:00:00.000000', '2026-01-01T00:00:00.000000', '{"a":1.5}')`).run(s.session_id, site);
  db.prepare("INSERT INTO webhook_attempts VALUES ('msg_1', 1, 'auto', '2026-01-01T00:00:00.000000', 500, NULL, 12.25)").run();
}

describe('GET /_vtr/api/state as a stream', () => {
  it('export: the bytes are the document the rows as objects give, as JSON.stringify(doc, null, 2) wrote it', async () => {
    const h = pool.fresh();
    await populate(h);
    const res = await h.request('/_vtr/api/state');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(res.headers.get('content-length')).toBe(String(bytes.length));
    const doc = JSON.parse(bytes.toString('utf8'));
    const old = h.emulator.store.state.export(doc.exported_at);
    expect(doc).toEqual(old);
    expect(bytes.toString('utf8')).toBe(`${JSON.stringify(old, null, 2)}\n`);
    expect(Object.keys(doc.tables)).toEqual(Object.keys(old.tables));
    expect(JSON.parse(res.headers.get('vtr-state-tables')!)).toEqual(Object.fromEntries(Object.entries(old.tables).map(([t, rows]) => [t, rows.length])));
  });

  it('export: chunks of the bytes are bounded, however many rows', () => {
    const h = pool.fresh();
    const insert = h.emulator.store.db.prepare("INSERT INTO meta (key, value) VALUES (?, ?)");
    for (let i = 0; i < 3000; i++) insert.run(`k${i}`, 'v'.repeat(100));
    const out = h.emulator.deps.state!.exportBytes();
    const chunks = [...out.chunks()];
    expect(chunks.length).toBeGreaterThan(3);
    expect(Math.max(...chunks.map((c) => c.length))).toBeLessThan(80 * 1024);
    expect(chunks.reduce((n, c) => n + c.length, 0)).toBe(out.byteLength);
    expect(out.counts.meta).toBeGreaterThanOrEqual(3000);
    // Given once: a second pass holds nothing (each chunk let go once sent).
    expect([...out.chunks()].every((c) => c.length === 0)).toBe(true);
  });
});

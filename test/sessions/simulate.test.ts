import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator } from '../../src/emulator.js';
import { mulberry32, planSessions, seedOf } from '../../src/sessions/simulate-plan.js';
import type { Session } from '../../src/domain/session.js';

const emus: Array<ReturnType<typeof createEmulator>> = [];
function emulator() {
  const e = createEmulator({ dbPath: ':memory:' });
  emus.push(e);
  return e;
}
afterEach(async () => {
  for (const e of emus.splice(0)) await e.close();
});

async function simulate(e: ReturnType<typeof createEmulator>, body: Record<string, unknown>) {
  const res = await e.app.request(`/_vtr/api/sites/${e.bootstrap!.site.site_id}/sessions/simulate`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

// Everything about a session except its ids and times.
const shape = (s: Session) => {
  const { session_id, site_id, created_at, updated_at, fingerprint, source_id, ...rest } = s;
  return { ...rest, source_id: source_id ? 'x' : null, fingerprint: fingerprint ? 'x' : null };
};

describe('simulate plan', () => {
  it('mulberry32: the same seed gives the same numbers in [0, 1)', () => {
    const a = mulberry32(7);
    const b = mulberry32(7);
    const xs = Array.from({ length: 1000 }, () => a());
    expect(xs).toEqual(Array.from({ length: 1000 }, () => b()));
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThan(1);
    expect(mulberry32(8)()).not.toBe(xs[0]);
  });

  it('seedOf: integers as themselves, other text hashed', () => {
    expect(seedOf('42')).toBe(42);
    // Every seed the emulator reports (up to 2^32 - 1) reads back as itself: "same seed, same traffic".
    expect(seedOf('1408288294')).toBe(1408288294);
    expect(seedOf('4294967295')).toBe(4294967295);
    expect(seedOf('4294967296')).not.toBe(0);
    expect(seedOf(42)).toBe(42);
    expect(seedOf('hello')).toBe(seedOf('hello'));
    expect(seedOf('hello')).not.toBe(seedOf('hellp'));
  });

  it('planSessions: same seed, same plan; another seed, another plan', () => {
    const a = [...planSessions(1, 300, 60)];
    expect([...planSessions(1, 300, 60)]).toEqual(a);
    expect([...planSessions(2, 300, 60)]).not.toEqual(a);
  });
});

describe('POST /_vtr/api/sites/:id/sessions/simulate', () => {
  it('simulate: the same seed gives the same sessions (but for ids and times)', async () => {
    const a = emulator();
    const b = emulator();
    const ra = await simulate(a, { count: 400, seed: 42 });
    const rb = await simulate(b, { count: 400, seed: 42 });
    expect(ra.status).toBe(201);
    const strip = ({ duration_ms, sessions_per_second, sample_session_ids, site_id, ...rest }: any) => rest;
    expect(strip(ra.body)).toEqual(strip(rb.body));
    const list = (e: typeof a) => e.store.sessions.list({ limit: 10_000 }).map(shape);
    expect(list(a)).toEqual(list(b));
    // Running it again on the same emulator: the same traffic, by new visitors.
    const again = await simulate(a, { count: 400, seed: 42 });
    expect(strip(again.body)).toEqual(strip(ra.body));
  });

  it('simulate: mixed traffic of every channel, risk level, engagement and device', async () => {
    const e = emulator();
    const r = await simulate(e, { count: 2000, seed: 'mix' });
    const s = r.body;
    expect(s).toMatchObject({ count: 2000, seed: seedOf('mix') });
    for (const group of ['by_channel', 'by_risk_level', 'by_engagement_level']) {
      for (const [k, n] of Object.entries(s[group])) expect(n, `${group}.${k}`).toBeGreaterThan(0);
    }
    expect(s.by_device_type.computer + s.by_device_type.mobile).toBeGreaterThan(1000);
    expect(s.by_device_type.tablet).toBeGreaterThan(0);
    expect(Object.values(s.by_channel).reduce((x: number, y) => x + (y as number), 0)).toBe(2000);
    expect(s.returning_visitors).toBeGreaterThan(0);
    expect(Object.keys(s.by_country).length).toBeGreaterThan(10);
    const sessions = e.store.sessions.list({ limit: 10_000 });
    expect(sessions).toHaveLength(2000);
    const sources = new Set(sessions.map((x) => x.source));
    for (const src of ['google', 'meta', 'microsoft', 'tiktok', 'linkedin', 'newsletter']) expect(sources.has(src), src).toBe(true);
    const risks = new Set(sessions.flatMap((x) => x.risks));
    for (const risk of ['bot', 'crawler', 'tor', 'vpn', 'proxy', 'hosting', 'poor_referrer_reputation']) expect(risks.has(risk), risk).toBe(true);
    // Probes were issued as for the agent's page views.
    expect(e.store.probes.all().length).toBeGreaterThanOrEqual(s.page_views);
    // All in the past, in order.
    const now = e.clock.now();
    for (const x of sessions) expect(Date.parse(`${x.updated_at.slice(0, 23)}Z`)).toBeLessThanOrEqual(now);
  });

  it('simulate: publishes each session once after its batch', async () => {
    const e = emulator();
    const events: string[] = [];
    e.deps.bus.subscribe((ev) => ev.type.startsWith('session.') && events.push(ev.type));
    await simulate(e, { count: 50, seed: 3 });
    expect(events).toHaveLength(50);
    expect(new Set(events)).toEqual(new Set(['session.created']));
  });

  it('simulate: 400 for a bad count or seed, 404 for an unknown site', async () => {
    const e = emulator();
    expect((await simulate(e, {})).body.message).toMatch(/^count:/);
    expect((await simulate(e, { count: 0 })).status).toBe(400);
    expect((await simulate(e, { count: 1.5 })).status).toBe(400);
    expect((await simulate(e, { count: 2_000_000 })).status).toBe(400);
    expect((await simulate(e, { count: 1, seed: true })).body.message).toMatch(/^seed:/);
    const res = await e.app.request('/_vtr/api/sites/site_nope/sessions/simulate', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"count":1}' });
    expect(res.status).toBe(404);
  });

  it('simulate: throughput sanity (20,000 sessions in one call; timing is reported, not asserted)', async () => {
    const e = emulator();
    const r = await simulate(e, { count: 20_000, seed: 1 });
    expect(r.status).toBe(201);
    expect(e.store.sessions.count()).toBe(20_000);
    expect(r.body.sessions_per_second).toBeGreaterThan(0);
    console.log(`simulate: 20,000 sessions in ${r.body.duration_ms} ms (${r.body.sessions_per_second}/s)`);
  }, 120_000);
});

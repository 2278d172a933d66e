// appendCustomEvent (the public route's and the agent's) must store exactly what addCustomEvent
// stores, and every custom event is a session change the webhook trigger sees.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEmulator } from '../../src/emulator.js';
import type { PageView, Session } from '../../src/domain/session.js';
import type { Site } from '../../src/domain/site.js';
import type { EmulatorEvent } from '../../src/events/bus.js';

let emu: ReturnType<typeof createEmulator>;
let site: Site;

beforeEach(() => {
  emu = createEmulator({ dbPath: ':memory:', clock: 'manual' });
  site = emu.bootstrap!.site;
});
afterEach(async () => {
  await emu.close();
});

const pv = (fingerprint: string, extra: Partial<PageView> = {}): PageView => ({
  url: 'https://shop.test/?utm_source=news',
  fingerprint,
  ip: '192.0.2.10',
  user_agent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  referrer: 'https://news.example.org/a',
  ...extra,
});

/** Two sessions built alike: one changed through each path. */
function twins(extra: Partial<PageView> = {}): [string, string] {
  const a = emu.deps.sessions.recordPageView(site, pv('fp_a', extra)).session.session_id;
  const b = emu.deps.sessions.recordPageView(site, pv('fp_b', extra)).session.session_id;
  return [a, b];
}

/** A session as stored, without what differs between twins by construction (ids, the µs of its times). */
function stored(id: string): Omit<Session, 'session_id' | 'fingerprint' | 'created_at' | 'updated_at'> & { check_risks: string[] } {
  const rec = emu.store.sessions.get(id)!;
  const { session_id: _i, fingerprint: _f, created_at: _c, updated_at: _u, ...rest } = rec.session;
  return { ...rest, check_risks: rec.check_risks };
}

describe('appendCustomEvent', () => {
  it('appendCustomEvent: stores what addCustomEvent stores (events, value, engagement, time)', async () => {
    const [a, b] = twins();
    const s = emu.deps.sessions;
    await emu.deps.advanceClock!(90_000);
    const now = emu.clock.nowMicros();
    for (const [name, value] of [['signup', 3], ['signup', null], ['conversion', 2.5], ['x', Number.NaN]] as const) {
      s.addCustomEvent(a, site.site_id, name, value);
      s.appendCustomEvent(b, site.site_id, name, value);
      expect(stored(b)).toEqual(stored(a));
    }
    expect(stored(b).custom_events).toEqual(['signup', 'signup', 'conversion', 'x']);
    expect(stored(b).value).toBe(5.5);
    expect(stored(b).engagement_level).toBe('converted');
    expect(Date.parse(`${emu.store.sessions.get(b)!.session.updated_at}Z`) * 1000).toBeGreaterThanOrEqual(Math.floor(now / 1000) * 1000);
  });

  it('appendCustomEvent: values add as decimals (0.1 + 0.2 is 0.3, 20.29 + 5.01 is 25.3), not with binary rounding errors', () => {
    const [a] = twins();
    const s = emu.deps.sessions;
    s.appendCustomEvent(a, site.site_id, 'purchase', 0.1);
    s.appendCustomEvent(a, site.site_id, 'purchase', 0.2);
    expect(stored(a).value).toBe(0.3);
    s.appendCustomEvent(a, site.site_id, 'purchase', 19.99);
    s.appendCustomEvent(a, site.site_id, 'purchase', 5.01);
    expect(stored(a).value).toBe(25.3);
    s.appendCustomEvent(a, site.site_id, 'refund', -25.2);
    expect(stored(a).value).toBe(0.1);
    // Beyond what a decimal of 15 places holds, the plain sum.
    s.appendCustomEvent(a, site.site_id, 'tiny', 1e-20);
    expect(stored(a).value).toBe(0.1 + 1e-20);
  });

  it('appendCustomEvent: recomputes what the site changed since (name, excluded countries, conversion events)', () => {
    const [a, b] = twins({ ip: '203.0.113.7' });
    const s = emu.deps.sessions;
    const country = emu.store.sessions.get(a)!.session.country_code;
    emu.deps.sites.update(site.site_id, { name: 'Renamed shop', conversion_events: ['signup'], excluded_countries: country ? [country] : ['ZZ'] });
    s.addCustomEvent(a, site.site_id, 'signup');
    s.appendCustomEvent(b, site.site_id, 'signup');
    expect(stored(b)).toEqual(stored(a));
    expect(stored(b).site_name).toBe('Renamed shop');
    expect(stored(b).engagement_level).toBe('converted');
  });

  it('appendCustomEvent: an earlier conversion counts, until the site no longer calls it one', () => {
    const [a, b] = twins();
    const s = emu.deps.sessions;
    for (const name of ['conversion', ...Array.from({ length: 40 }, (_, i) => `e${i}`), 'x']) {
      s.addCustomEvent(a, site.site_id, name);
      s.appendCustomEvent(b, site.site_id, name);
    }
    expect(stored(b)).toEqual(stored(a));
    expect(stored(b).engagement_level).toBe('converted');
    emu.deps.sites.update(site.site_id, { conversion_events: ['purchase'] });
    s.addCustomEvent(a, site.site_id, 'y');
    s.appendCustomEvent(b, site.site_id, 'y');
    expect(stored(b)).toEqual(stored(a));
    expect(stored(b).engagement_level).not.toBe('converted');
    expect(stored(b).custom_events).toHaveLength(43);
  });

  it('appendCustomEvent: keeps the risks visitor checks added', () => {
    const [a, b] = twins();
    emu.deps.sessions.recordCheck(a, ['ip_mismatch'], () => []);
    emu.deps.sessions.recordCheck(b, ['ip_mismatch'], () => []);
    emu.deps.sessions.addCustomEvent(a, site.site_id, 'e');
    emu.deps.sessions.appendCustomEvent(b, site.site_id, 'e');
    expect(stored(b)).toEqual(stored(a));
    expect(stored(b).risks).toContain('ip_mismatch');
  });

  it("appendCustomEvent: another site's session or an unknown id is not found, and nothing changes", () => {
    const [a] = twins();
    const before = stored(a);
    const other = emu.deps.sites.create({ name: 'Other' });
    expect(() => emu.deps.sessions.appendCustomEvent(a, other.site_id, 'e')).toThrow(/session/);
    expect(() => emu.deps.sessions.appendCustomEvent('ses_unknown', site.site_id, 'e')).toThrow(/session/);
    expect(stored(a)).toEqual(before);
  });

  it('appendCustomEvent: a GET afterwards answers the new state (nothing stale cached)', () => {
    const [a] = twins();
    expect(emu.deps.sessions.get(a, site.site_id).custom_events).toEqual([]);
    emu.deps.sessions.appendCustomEvent(a, site.site_id, 'e', 4);
    const after = emu.deps.sessions.get(a, site.site_id);
    expect(after.custom_events).toEqual(['e']);
    expect(after.value).toBe(4);
  });

  it('appendCustomEvent: session.updated carries the whole session to a listener that reads it, none is built otherwise', () => {
    const [a] = twins();
    const seen: EmulatorEvent[] = [];
    const off = emu.deps.bus.subscribe((e) => seen.push(e), (type) => type === 'request.logged');
    emu.deps.sessions.appendCustomEvent(a, site.site_id, 'quiet');
    expect(seen.filter((e) => e.type === 'session.updated')).toEqual([]);
    off();
    emu.deps.bus.subscribe((e) => seen.push(e));
    emu.deps.sessions.appendCustomEvent(a, site.site_id, 'heard');
    const updated = seen.filter((e) => e.type === 'session.updated');
    expect(updated).toHaveLength(1);
    expect(updated[0].data).toEqual(emu.deps.sessions.get(a));
    expect(updated[0].data.custom_events).toEqual(['quiet', 'heard']);
  });

  it('appendCustomEvent: with a saved view on the site, a conversion still triggers its webhook', async () => {
    emu.deps.sites.update(site.site_id, { plan: 'paid' });
    emu.deps.views!.create(site.site_id, { name: 'Converted', filter: 'engagement_level = converted', trigger_webhooks: true });
    emu.deps.webhooks!.create(site.site_id, 'http://127.0.0.1:9/hook');
    const [a] = twins();
    expect(emu.store.webhookEvents.list({ siteId: site.site_id })).toHaveLength(0);
    emu.deps.sessions.appendCustomEvent(a, site.site_id, 'conversion');
    const events = emu.store.webhookEvents.list({ siteId: site.site_id });
    expect(events).toHaveLength(1);
    expect(events[0].session_id).toBe(a);
  });
});

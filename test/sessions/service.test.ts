import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEmulator } from '../../src/emulator.js';
import type { PageView } from '../../src/domain/session.js';
import type { Site } from '../../src/domain/site.js';
import { SESSION_TIMEOUT_US } from '../../src/sessions/service.js';

const MIN_US = 60 * 1_000_000;

let emu: ReturnType<typeof createEmulator>;
let site: Site;
const T0 = Date.UTC(2026, 10, 21, 9, 0, 0) * 1000; // 2026-11-21T09:00:00 in µs

beforeEach(() => {
  emu = createEmulator({ dbPath: ':memory:' });
  site = emu.bootstrap!.site;
});
afterEach(async () => {
  await emu.close();
});

const view = (url: string, fingerprint = 'fp_visitor_1', extra: Partial<PageView> = {}): PageView => ({
  url,
  fingerprint,
  ip: '192.0.2.10',
  user_agent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  language: 'en-US',
  timezone: 'America/New_York',
  ...extra,
});

const record = (pv: PageView, atUs?: number) => emu.deps.sessions.recordPageView(site, pv, atUs === undefined ? {} : { atUs }).session;

describe('session service: the 30-minute rule', () => {
  it('recordPageView: a page view 29 minutes later continues the session', () => {
    const a = record(view('https://shop.test/'), T0);
    const b = record(view('https://shop.test/pricing'), T0 + 29 * MIN_US);
    expect(b.session_id).toBe(a.session_id);
    expect(b.page_views).toBe(2);
    expect(b.duration).toBe(29 * 60);
    expect(emu.store.sessions.count()).toBe(1);
  });

  it('recordPageView: a page view 31 minutes after the last one starts a new session', () => {
    const a = record(view('https://shop.test/'), T0);
    const a2 = record(view('https://shop.test/2'), T0 + 20 * MIN_US);
    expect(a2.session_id).toBe(a.session_id);
    // 31 minutes after the latest view (51 after the first)
    const b = record(view('https://shop.test/3'), T0 + 51 * MIN_US);
    expect(b.session_id).not.toBe(a.session_id);
    expect(b.page_views).toBe(1);
    expect(b.duration).toBe(0);
    expect(b.entry_path).toBe('/3');
    expect(emu.deps.sessions.get(a.session_id).page_views).toBe(2);
  });

  it('recordPageView: exactly 30 minutes of silence ends the session', () => {
    const a = record(view('https://shop.test/'), T0);
    const b = record(view('https://shop.test/'), T0 + SESSION_TIMEOUT_US);
    expect(b.session_id).not.toBe(a.session_id);
  });

  it('recordPageView: the manual clock drives the rule', () => {
    const manual = createEmulator({ dbPath: ':memory:', clock: 'manual' });
    try {
      const s = manual.bootstrap!.site;
      const a = manual.deps.sessions.recordPageView(s, view('https://shop.test/')).session;
      manual.clock.advance(29 * 60_000);
      const b = manual.deps.sessions.recordPageView(s, view('https://shop.test/b')).session;
      expect(b.session_id).toBe(a.session_id);
      // nowMicros mixes Date.now() with a performance.now() fraction, so it can read up to 1 ms short
      expect(b.duration).toBeGreaterThanOrEqual(29 * 60 - 1);
      expect(b.duration).toBeLessThan(29 * 60 + 60);
      manual.clock.advance(31 * 60_000);
      const c = manual.deps.sessions.recordPageView(s, view('https://shop.test/c')).session;
      expect(c.session_id).not.toBe(a.session_id);
      expect(c.returned).toBe(true);
    } finally {
      void manual.close();
    }
  });

  it('recordPageView: visitors with different fingerprints never share a session', () => {
    const a = record(view('https://shop.test/', 'fp_a'), T0);
    const b = record(view('https://shop.test/', 'fp_b'), T0 + MIN_US);
    expect(b.session_id).not.toBe(a.session_id);
    expect(b.returned).toBe(false);
  });
});

describe('session service: click ids', () => {
  it('recordPageView: a new ad click id starts a new session', () => {
    const a = record(view('https://shop.test/?gclid=first'), T0);
    expect(a.channel).toBe('paid');
    const same = record(view('https://shop.test/?gclid=first'), T0 + MIN_US);
    expect(same.session_id).toBe(a.session_id);
    const b = record(view('https://shop.test/?gclid=second'), T0 + 2 * MIN_US);
    expect(b.session_id).not.toBe(a.session_id);
    expect(b).toMatchObject({ channel: 'paid', source: 'google', source_id: 'second', returned: true });
  });

  it('recordPageView: the same click id value from another ad network is a new click', () => {
    const a = record(view('https://shop.test/?gclid=abc'), T0);
    const b = record(view('https://shop.test/?fbclid=abc'), T0 + MIN_US);
    expect(b.session_id).not.toBe(a.session_id);
    expect(b).toMatchObject({ channel: 'paid', source: 'meta', source_subtype: 'fbclid', source_id: 'abc', returned: true });
    expect(record(view('https://shop.test/?fbclid=abc'), T0 + 2 * MIN_US).session_id).toBe(b.session_id);
  });

  it('recordPageView: a click id on a direct session starts a paid session', () => {
    const a = record(view('https://shop.test/'), T0);
    const b = record(view('https://shop.test/?fbclid=abc'), T0 + MIN_US);
    expect(b.session_id).not.toBe(a.session_id);
    expect(b).toMatchObject({ channel: 'paid', source: 'meta', source_id: 'abc' });
    // a page view without the click id continues the paid session
    const c = record(view('https://shop.test/cart'), T0 + 2 * MIN_US);
    expect(c.session_id).toBe(b.session_id);
    expect(c).toMatchObject({ channel: 'paid', page_views: 2, exit_path: '/cart' });
  });
});

describe('session service: visit fields', () => {
  it('recordPageView: returned is true for a second session with the same fingerprint', () => {
    const a = record(view('https://shop.test/'), T0);
    expect(a.returned).toBe(false);
    const b = record(view('https://shop.test/'), T0 + 45 * MIN_US);
    expect(b.session_id).not.toBe(a.session_id);
    expect(b.returned).toBe(true);
    expect(emu.deps.sessions.get(a.session_id).returned).toBe(false);
  });

  it('recordPageView: duration, page_views, entry and exit paths follow the views', () => {
    record(view('https://shop.test/landing?utm_source=mail'), T0);
    record(view('https://shop.test/products'), T0 + 15_000_000);
    const s = record(view('https://shop.test/checkout'), T0 + 95_000_000);
    expect(s).toMatchObject({
      page_views: 3,
      duration: 95,
      entry_hostname: 'shop.test',
      entry_path: '/landing',
      exit_hostname: 'shop.test',
      exit_path: '/checkout',
      channel: 'other',
      source: 'mail',
      engagement_level: 'engaged',
    });
    expect(s.created_at).toBe('2026-11-21T09:00:00.000000');
    expect(s.updated_at).toBe('2026-11-21T09:01:35.000000');
  });

  it('recordPageView: one short page view is a bounce; a ping extends the duration only', () => {
    const a = record(view('https://shop.test/'), T0);
    expect(a.engagement_level).toBe('bounced');
    const b = emu.deps.sessions.recordPageView(site, view('https://shop.test/other'), { atUs: T0 + 70_000_000, ping: true }).session;
    expect(b).toMatchObject({ session_id: a.session_id, page_views: 1, duration: 70, exit_path: '/', engagement_level: 'engaged' });
  });

  it('ping: the 30 minutes run from the latest page view, not from a ping', () => {
    const a = emu.deps.sessions.recordPageView(site, view('https://shop.test/'), { atUs: T0 }).session;
    // The visitor reads for 20 minutes (a ping), then clicks on at 35 minutes: 35 minutes without a page view.
    const read = emu.deps.sessions.recordPageView(site, view('https://shop.test/'), { atUs: T0 + 20 * MIN_US, ping: true, sessionId: a.session_id }).session;
    expect(read).toMatchObject({ session_id: a.session_id, page_views: 1, duration: 20 * 60 });
    const next = record(view('https://shop.test/pricing'), T0 + 35 * MIN_US);
    expect(next.session_id).not.toBe(a.session_id);
    expect(next).toMatchObject({ page_views: 1, returned: true });
  });

  it('ping: the agent\'s ping extends a session only within 30 minutes of its latest page view', () => {
    const manual = createEmulator({ dbPath: ':memory:', clock: 'manual' });
    try {
      const s = manual.bootstrap!.site;
      const a = manual.deps.sessions.recordPageView(s, view('https://shop.test/')).session;
      manual.clock.advance(20 * 60_000);
      expect(manual.deps.sessions.ping(s, a.session_id, 'https://shop.test/')).toBe(true);
      manual.clock.advance(15 * 60_000);
      expect(manual.deps.sessions.ping(s, a.session_id, 'https://shop.test/')).toBe(false);
      expect(manual.deps.sessions.get(a.session_id).duration).toBeLessThan(21 * 60);
    } finally {
      void manual.close();
    }
  });

  it('recordPageView: every change is stored and read back alike', () => {
    const s = record(view('https://shop.test/a'), T0);
    record(view('https://shop.test/b'), T0 + MIN_US);
    const stored = emu.deps.sessions.get(s.session_id);
    expect(stored.page_views).toBe(2);
    expect(emu.store.sessions.list({ siteId: site.site_id })).toEqual([stored]);
  });

  it('recordPageView: gives each page view its own probe id tied to the session', () => {
    const one = emu.deps.sessions.recordPageView(site, view('https://shop.test/'), { atUs: T0 });
    const two = emu.deps.sessions.recordPageView(site, view('https://shop.test/'), { atUs: T0 + 1 });
    expect(one.probe_id).toMatch(/^prb_[0-9A-Za-z]{32}$/);
    expect(two.probe_id).not.toBe(one.probe_id);
    expect(two.session.session_id).toBe(one.session.session_id);
  });

  it("recordPageView: a probe carries its own page view's IP, so a check from the visitor's new network matches", () => {
    const one = emu.deps.sessions.recordPageView(site, view('https://shop.test/'), { atUs: T0 });
    // Same visitor, same session, now on another network (IPv4-mapped, as a dual-stack socket reports it).
    const two = emu.deps.sessions.recordPageView(site, view('https://shop.test/pricing', 'fp_visitor_1', { ip: '::ffff:192.0.2.20' }), { atUs: T0 + MIN_US });
    expect(two.session.session_id).toBe(one.session.session_id);
    expect(two.session.ip).toBe('192.0.2.10');
    expect(emu.store.probes.get(one.probe_id)?.ip).toBe('192.0.2.10');
    expect(emu.store.probes.get(two.probe_id)?.ip).toBe('192.0.2.20');
    const check = emu.deps.checks.run(site, { probe_id: two.probe_id, ip: '192.0.2.20' });
    expect(check.device).toMatchObject({ valid: true, probe_ip: '192.0.2.20', probe_ip_match: true });
    expect(check.risks).not.toContain('ip_mismatch');
    // The earlier probe still answers for the address its page view came from.
    expect(emu.deps.checks.run(site, { probe_id: one.probe_id, ip: '192.0.2.20' }).device).toMatchObject({ probe_ip_match: false });
  });

  it('addCustomEvent: keeps order and repeats, sums value and can convert', () => {
    const s = record(view('https://shop.test/'), T0);
    emu.deps.sessions.addCustomEvent(s.session_id, site.site_id, 'signup', 5);
    emu.deps.sessions.addCustomEvent(s.session_id, site.site_id, 'signup', 2.5);
    const after = emu.deps.sessions.addCustomEvent(s.session_id, site.site_id, 'conversion');
    expect(after.custom_events).toEqual(['signup', 'signup', 'conversion']);
    expect(after.value).toBe(7.5);
    expect(after.engagement_level).toBe('converted');
  });

  it("addCustomEvent: another site's session is not found", () => {
    const other = emu.deps.sites.create({ name: 'Other' });
    const s = record(view('https://shop.test/'), T0);
    expect(() => emu.deps.sessions.addCustomEvent(s.session_id, other.site_id, 'x')).toThrow(/not found/);
    expect(emu.deps.sessions.get(s.session_id).custom_events).toEqual([]);
  });

  it('hooks: run in the transaction and after commit, and the bus publishes', () => {
    const seen: string[] = [];
    emu.deps.sessions.addHooks({
      inTransaction: (s, prev) => seen.push(`tx:${prev ? 'update' : 'create'}:${s.page_views}`),
      afterCommit: (s, prev) => seen.push(`after:${prev ? 'update' : 'create'}:${s.page_views}`),
    });
    const published: string[] = [];
    emu.deps.bus.subscribe((e) => published.push(e.type));
    record(view('https://shop.test/'), T0);
    record(view('https://shop.test/b'), T0 + MIN_US);
    expect(seen).toEqual(['tx:create:1', 'after:create:1', 'tx:update:2', 'after:update:2']);
    expect(published).toEqual(['session.created', 'session.updated']);
  });

  it('hooks: a hook that throws in the transaction rolls the change back', () => {
    emu.deps.sessions.addHooks({ inTransaction: () => { throw new Error('boom'); } });
    expect(() => record(view('https://shop.test/'), T0)).toThrow('boom');
    expect(emu.store.sessions.count()).toBe(0);
  });
});

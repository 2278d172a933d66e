import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEmulator } from '../../src/emulator.js';
import type { Site } from '../../src/domain/site.js';
import { createSessionsFromSpec, type SessionSpec } from '../../src/sessions/create.js';

let emu: ReturnType<typeof createEmulator>;
let site: Site;
beforeEach(() => {
  emu = createEmulator({ dbPath: ':memory:' });
  site = emu.bootstrap!.site;
});
afterEach(async () => {
  await emu.close();
});

const create = (spec: SessionSpec) => createSessionsFromSpec(emu.deps, site, spec);

describe('sessions create (service)', () => {
  it('create: defaults give one clean, direct, bounced computer session', () => {
    const s = create({});
    expect(s).toMatchObject({
      page_views: 1, duration: 0, channel: 'direct', risk_level: 'normal', engagement_level: 'bounced',
      ip: '192.0.2.10', country_code: 'US', device_type: 'computer', browser_family: 'Chrome', os_family: 'Windows',
      language: 'en-US', timezone: 'America/New_York', entry_hostname: 'example.com', entry_path: '/', returned: false,
    });
    expect(s.fingerprint).toMatch(/^fp_/);
    expect(emu.store.sessions.count()).toBe(1);
  });

  it('create: without a timezone the session takes its IP range\'s (contract §4 test values)', () => {
    expect(create({ ip: '198.51.100.7' })).toMatchObject({ country_code: 'GB', city: 'London', timezone: 'Europe/London' });
    expect(create({ ip: '203.0.113.9' })).toMatchObject({ country_code: 'DE', timezone: 'Europe/Berlin' });
    expect(create({ ip: '203.0.113.9', timezone: 'Asia/Tokyo' }).timezone).toBe('Asia/Tokyo');
    expect(create({ ip: '10.0.0.1' }).timezone).toBeNull();
  });

  it('create: page views spread over the duration make one session', () => {
    const s = create({ page_views: 4, duration: 120, url: 'https://shop.test/start?utm_source=x&gclid=g1' });
    expect(s).toMatchObject({ page_views: 4, duration: 120, entry_path: '/start', exit_path: '/start', channel: 'paid', source_id: 'g1' });
    expect(s.engagement_level).toBe('engaged');
    expect(emu.store.sessions.count()).toBe(1);
  });

  it('create: a landing path relative to the site keeps its query out of entry_path and exit_path', () => {
    const s = create({ page_views: 2, url: '/pricing?utm_source=newsletter&gclid=g2#plans' });
    expect(s).toMatchObject({ entry_hostname: null, entry_path: '/pricing', exit_path: '/pricing', channel: 'paid', source_id: 'g2' });
    expect(create({ url: '?gclid=g3' })).toMatchObject({ entry_path: '/', source_id: 'g3' });
  });

  it('create: one page view with a duration is one session of that length', () => {
    const s = create({ duration: 45 });
    expect(s).toMatchObject({ page_views: 1, duration: 45, engagement_level: 'normal' });
    expect(emu.store.sessions.count()).toBe(1);
  });

  it('create: a duration longer than 30 minutes still makes one session', () => {
    const one = create({ duration: 2 * 3600 });
    expect(one).toMatchObject({ page_views: 1, duration: 7200 });
    const many = create({ page_views: 2, duration: 3 * 3600 });
    expect(many).toMatchObject({ page_views: 2, duration: 10800 });
    expect(emu.store.sessions.count()).toBe(2);
  });

  it('create: the same fingerprint again is a returning visitor in a new session', () => {
    const a = create({ fingerprint: 'fp_same' });
    const b = create({ fingerprint: 'fp_same' });
    expect(b.session_id).not.toBe(a.session_id);
    expect(a.returned).toBe(false);
    expect(b.returned).toBe(true);
  });

  it('create: a returning visitor with several page views over a duration gets them all in its new session', () => {
    const a = create({ fingerprint: 'fp_back' });
    const b = create({ fingerprint: 'fp_back', page_views: 3, duration: 120 });
    expect(b.session_id).not.toBe(a.session_id);
    expect(b).toMatchObject({ page_views: 3, duration: 120, returned: true });
    expect(emu.deps.sessions.get(a.session_id).page_views).toBe(1);
    expect(emu.store.sessions.count()).toBe(2);
  });

  it('create: custom events are added in order', () => {
    const s = create({ custom_events: ['signup', 'conversion', 'signup'] });
    expect(s.custom_events).toEqual(['signup', 'conversion', 'signup']);
    expect(s.engagement_level).toBe('converted');
  });

  it('create: explicit nulls mean unknown', () => {
    const s = create({ ip: null, user_agent: null, language: null, timezone: null });
    expect(s).toMatchObject({ ip: null, ip_network: null, country_code: null, device_type: null, browser_name: null, language: null, timezone: null, user_agent: null });
    expect(s.risk_level).toBe('normal');
  });
});

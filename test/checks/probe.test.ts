import { describe, expect, it } from 'vitest';
import { checkProbe, deviceSection, probeIpMatch, type ProbeRef } from '../../src/checks/probe.js';
import { newId } from '../../src/domain/ids.js';
import { emptySession } from '../../src/sessions/service.js';
import type { Site } from '../../src/domain/site.js';

const probe: ProbeRef = { probe_id: newId.probe(1_000_000_000), site_id: 'site_a', session_id: 'ses_1', ip: '192.0.2.10', created_at: '2026-01-01T00:00:00.000000', created_us: 1_000_000_000 };
const find = (id: string) => (id === probe.probe_id ? probe : null);

describe('checkProbe', () => {
  it('checkProbe: a probe issued to the site is valid', () => {
    expect(checkProbe(probe.probe_id, 'site_a', find)).toEqual({ valid: true, probe });
    expect(checkProbe(`  ${probe.probe_id} `, 'site_a', find).valid).toBe(true);
  });

  it('checkProbe: empty and blank probes are invalid (empty)', () => {
    expect(checkProbe('', 'site_a', find)).toEqual({ valid: false, problem: 'empty' });
    expect(checkProbe('   ', 'site_a', find)).toEqual({ valid: false, problem: 'empty' });
  });

  it('checkProbe: malformed probes are invalid without a lookup', () => {
    const lookups: string[] = [];
    const spy = (id: string) => (lookups.push(id), null);
    for (const bad of ['prb_short', 'xyz', `${probe.probe_id}x`, 'prb_' + '!'.repeat(32), 'p'.repeat(100_000)]) {
      expect(checkProbe(bad, 'site_a', spy)).toEqual({ valid: false, problem: 'malformed' });
    }
    expect(lookups).toEqual([]);
  });

  it('checkProbe: a well-formed but unknown probe is invalid (unknown)', () => {
    expect(checkProbe(newId.probe(1_000_000_000), 'site_a', find)).toEqual({ valid: false, problem: 'unknown' });
  });

  it("checkProbe: another site's probe reads as unknown", () => {
    expect(checkProbe(probe.probe_id, 'site_b', find)).toEqual({ valid: false, problem: 'unknown' });
  });
});

describe('probeIpMatch', () => {
  it('probeIpMatch: equal addresses match, in normalised form', () => {
    expect(probeIpMatch('192.0.2.10', '192.0.2.10')).toBe(true);
    expect(probeIpMatch('192.0.2.10', '::ffff:192.0.2.10')).toBe(true);
    expect(probeIpMatch('2001:db8::1', '2001:DB8:0:0::1')).toBe(true);
  });

  it('probeIpMatch: two loopback addresses match (a localhost page reached over ::1, the emulator over 127.0.0.1)', () => {
    expect(probeIpMatch('127.0.0.1', '::1')).toBe(true);
    expect(probeIpMatch('::ffff:127.0.0.1', '127.0.0.2')).toBe(true);
    expect(probeIpMatch('127.0.0.1', '10.0.0.1')).toBe(false);
    expect(probeIpMatch('192.168.1.2', '10.0.0.1')).toBe(false);
  });

  it('probeIpMatch: different addresses do not match, even in the same network', () => {
    expect(probeIpMatch('192.0.2.10', '192.0.2.11')).toBe(false);
    expect(probeIpMatch('192.0.2.10', '2001:db8::1')).toBe(false);
  });

  it('probeIpMatch: unknown when either side is missing or not an IP', () => {
    expect(probeIpMatch(null, '192.0.2.10')).toBeNull();
    expect(probeIpMatch('192.0.2.10', null)).toBeNull();
    expect(probeIpMatch('192.0.2.10', 'not-an-ip')).toBeNull();
  });
});

describe('deviceSection', () => {
  const site = { site_id: 'site_a', name: 'A' } as Site;
  const session = { ...emptySession(site, 'ses_1', '2026-01-01T00:00:00.000000'), fingerprint: 'fp_1',
    user_agent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
    browser_name: 'Chrome Headless', os_family: 'Linux', device_type: 'computer' as const, language: 'en-US', timezone: 'UTC' };

  it('deviceSection: a valid probe carries its session device and the elapsed minutes', () => {
    const d = deviceSection(probe.probe_id, { valid: true, probe }, session, { nowUs: probe.created_us + 125 * 1_000_000, checkIp: '192.0.2.99' });
    expect(d).toMatchObject({
      success: true, valid: true, invalid_reason: null, probe_id: probe.probe_id, probe_created_at: probe.created_at,
      probe_mins_elapsed: 2, probe_ip_match: false, session_id: 'ses_1', fingerprint: 'fp_1', browser_name: 'Chrome Headless',
      os_family: 'Linux', device_type: 'computer', language: 'en-US', timezone: 'UTC', bot: true, headless_browser: true, crawler: false,
    });
  });

  it('deviceSection: an invalid probe says why and nothing else', () => {
    const d = deviceSection('x'.repeat(500), { valid: false, problem: 'malformed' }, null, { nowUs: 0, checkIp: null });
    expect(d).toMatchObject({ success: true, valid: false, invalid_reason: 'malformed', session_id: null, bot: null, probe_ip_match: null });
    expect(d.probe_id).toHaveLength(100);
  });
});

import { describe, it, expect } from 'vitest';
import {
  RISK_LABELS,
  RISK_LABEL_LEVELS,
  RISK_ORDER,
  compareRiskLevel,
  riskAtLeast,
  riskLevelOf,
  sessionRisks,
} from '../../src/domain/risk.js';
import { RISK_LEVELS } from '../../src/domain/session.js';

const cleanUa = { bot: false, crawler: false, headless: false };
const cleanIp = { tor: false, vpn: false, proxy: false, hosting: false, anonymous: false };
const base = { ua: cleanUa, ip: cleanIp, country_code: 'US', referrer_domain: null, excluded_countries: [] };

describe('riskLevelOf', () => {
  it('riskLevelOf: each label maps to its contract level', () => {
    const invalid = ['bot', 'tor', 'high_ip_frequency'];
    const suspicious = [
      'anonymous', 'vpn', 'proxy', 'hosting', 'suspect_device', 'invalid_probe', 'ip_mismatch',
      'disposable_email', 'poor_ip_reputation',
    ];
    const unwanted = ['crawler', 'poor_referrer_reputation', 'excluded_country'];
    for (const r of invalid) expect(riskLevelOf([r])).toBe('invalid');
    for (const r of suspicious) expect(riskLevelOf([r])).toBe('suspicious');
    for (const r of unwanted) expect(riskLevelOf([r])).toBe('unwanted');
    expect([...RISK_LABELS].sort()).toEqual([...invalid, ...suspicious, ...unwanted].sort());
    expect(Object.keys(RISK_LABEL_LEVELS).sort()).toEqual([...RISK_LABELS].sort());
  });

  it('riskLevelOf: the most severe label wins', () => {
    expect(riskLevelOf(['crawler', 'vpn'])).toBe('suspicious');
    expect(riskLevelOf(['excluded_country', 'hosting', 'tor'])).toBe('invalid');
  });

  it('riskLevelOf: no or unknown labels are normal', () => {
    expect(riskLevelOf([])).toBe('normal');
    expect(riskLevelOf(['something_new'])).toBe('normal');
    expect(riskLevelOf(['toString', '__proto__'])).toBe('normal');
  });

  it('riskLevelOf: allowlisted IP is always normal', () => {
    expect(riskLevelOf(['bot', 'tor'], { allowlisted: true })).toBe('normal');
    expect(riskLevelOf(['bot'], { allowlisted: false })).toBe('invalid');
  });
});

describe('risk order', () => {
  it('compareRiskLevel: normal < unwanted < suspicious < invalid', () => {
    expect([...RISK_LEVELS].reverse().sort(compareRiskLevel)).toEqual(['normal', 'unwanted', 'suspicious', 'invalid']);
    expect(compareRiskLevel('invalid', 'invalid')).toBe(0);
    expect(RISK_ORDER.normal).toBeLessThan(RISK_ORDER.unwanted);
  });

  it('riskAtLeast: compares against a threshold, null never matches', () => {
    expect(riskAtLeast('suspicious', 'unwanted')).toBe(true);
    expect(riskAtLeast('suspicious', 'suspicious')).toBe(true);
    expect(riskAtLeast('unwanted', 'suspicious')).toBe(false);
    expect(riskAtLeast('normal', 'normal')).toBe(true);
    expect(riskAtLeast(null, 'normal')).toBe(false);
  });
});

describe('sessionRisks', () => {
  it('sessionRisks: clean session has no risks', () => {
    expect(sessionRisks(base)).toEqual([]);
    expect(sessionRisks({ ...base, ip: null, country_code: null })).toEqual([]);
  });

  it('sessionRisks: user agent flags become bot / crawler', () => {
    expect(sessionRisks({ ...base, ua: { bot: true, crawler: false, headless: false } })).toEqual(['bot']);
    expect(sessionRisks({ ...base, ua: { bot: false, crawler: false, headless: true } })).toEqual(['bot']);
    expect(sessionRisks({ ...base, ua: { bot: true, crawler: false, headless: true } })).toEqual(['bot']);
    expect(sessionRisks({ ...base, ua: { bot: false, crawler: true, headless: false } })).toEqual(['crawler']);
  });

  it('sessionRisks: IP flags in a fixed order (datacenter, Tor test ranges)', () => {
    const datacenter = sessionRisks({ ...base, ip: { ...cleanIp, hosting: true, anonymous: true } });
    expect(datacenter).toEqual(['anonymous', 'hosting']);
    expect(riskLevelOf(datacenter)).toBe('suspicious');
    const tor = sessionRisks({ ...base, ip: { ...cleanIp, tor: true, anonymous: true } });
    expect(tor).toEqual(['tor', 'anonymous']);
    expect(riskLevelOf(tor)).toBe('invalid');
    expect(sessionRisks({ ...base, ip: { tor: true, vpn: true, proxy: true, hosting: true, anonymous: true } }))
      .toEqual(['tor', 'anonymous', 'vpn', 'proxy', 'hosting']);
  });

  it('sessionRisks: excluded country, case-insensitive', () => {
    expect(sessionRisks({ ...base, country_code: 'de', excluded_countries: ['DE', 'FR'] })).toEqual(['excluded_country']);
    expect(sessionRisks({ ...base, country_code: 'US', excluded_countries: ['DE'] })).toEqual([]);
    expect(sessionRisks({ ...base, country_code: null, excluded_countries: ['DE'] })).toEqual([]);
  });

  it('sessionRisks: spam-referrer.test and its subdomains have a poor reputation', () => {
    expect(sessionRisks({ ...base, referrer_domain: 'spam-referrer.test' })).toEqual(['poor_referrer_reputation']);
    expect(sessionRisks({ ...base, referrer_domain: 'a.b.spam-referrer.test' })).toEqual(['poor_referrer_reputation']);
    expect(sessionRisks({ ...base, referrer_domain: 'notspam-referrer.test' })).toEqual([]);
    expect(riskLevelOf(sessionRisks({ ...base, referrer_domain: 'spam-referrer.test' }))).toBe('unwanted');
  });

  it('sessionRisks: extra labels are merged, deduplicated and ordered', () => {
    const risks = sessionRisks({
      ...base,
      ua: { bot: false, crawler: true, headless: false },
      ip: { ...cleanIp, vpn: true },
      extra: ['zz_custom', 'disposable_email', 'vpn', 'invalid_probe', 'zz_custom', 'ip_mismatch'],
    });
    expect(risks).toEqual(['vpn', 'invalid_probe', 'ip_mismatch', 'disposable_email', 'crawler', 'zz_custom']);
  });

  it('sessionRisks: same input gives the same output', () => {
    const input = { ...base, ua: { bot: true, crawler: false, headless: true }, extra: ['ip_mismatch'] };
    expect(sessionRisks(input)).toEqual(sessionRisks(input));
  });
});

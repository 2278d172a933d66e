import { describe, expect, it } from 'vitest';
import { checkIp, ipRisks } from '../../src/checks/ip.js';
import { lookupIp } from '../../src/domain/ip-intel.js';

describe('checkIp', () => {
  it('checkIp: a clean residential test IP on a US site', () => {
    expect(checkIp('192.0.2.10', 'US')).toEqual({
      success: true, valid: true, ip: '192.0.2.10', ip_network: '192.0.2', version: 4, isp: 'Example Residential',
      country_code: 'US', country_name: 'United States of America', city: 'New York', timezone: 'America/New_York',
      in_country: true, vpn: false, proxy: false, tor: false, hosting: false, anonymous: false, bogon: false, private: false,
    });
  });

  it('checkIp: in_country is false abroad and null without a site country', () => {
    expect(checkIp('203.0.113.5', 'US').in_country).toBe(false);
    expect(checkIp('203.0.113.5', 'de').in_country).toBe(true);
    expect(checkIp('203.0.113.5', null).in_country).toBeNull();
  });

  it('checkIp: bogons have no country and in_country null', () => {
    expect(checkIp('192.168.1.20', 'US')).toMatchObject({ valid: true, bogon: true, private: true, country_code: null, in_country: null });
    expect(checkIp('::1', 'US')).toMatchObject({ valid: true, bogon: true, private: false, version: 6 });
  });

  it('checkIp: an invalid IP is checked and invalid', () => {
    expect(checkIp('999.1.1.1', 'US')).toMatchObject({ success: true, valid: false, version: null, ip_network: null, in_country: null });
    expect(checkIp('x'.repeat(10_000), 'US')).toMatchObject({ success: true, valid: false });
  });

  it('checkIp: uses the given lookup, else the bundled country database', () => {
    expect(checkIp('8.8.8.8', 'FR', () => 'FR')).toMatchObject({ country_code: 'FR', in_country: true });
    expect(checkIp('8.8.8.8', 'US')).toMatchObject({ country_code: 'US', in_country: true, city: null, isp: null });
  });

  it('ipRisks: labels for each test range, in a stable order', () => {
    expect(ipRisks(lookupIp('192.0.2.1'))).toEqual([]);
    expect(ipRisks(lookupIp('198.51.100.1'))).toEqual(['hosting', 'anonymous']);
    expect(ipRisks(lookupIp('203.0.113.1'))).toEqual(['tor', 'anonymous']);
    expect(ipRisks(lookupIp('198.18.0.1'))).toEqual(['vpn', 'anonymous']);
    expect(ipRisks(lookupIp('198.18.1.1'))).toEqual(['proxy', 'anonymous']);
    expect(ipRisks(lookupIp('2001:db8::1'))).toEqual([]);
    expect(ipRisks(lookupIp('127.0.0.1'))).toEqual([]);
    expect(ipRisks(checkIp('203.0.113.1', null))).toEqual(['tor', 'anonymous']);
  });
});

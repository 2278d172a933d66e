import { describe, expect, it } from 'vitest';
import { testValues } from '../../src/domain/test-values.js';
import { lookupIp } from '../../src/domain/ip-intel.js';
import { parseUserAgent } from '../../src/domain/user-agent.js';
import { riskLevelOf, sessionRisks } from '../../src/domain/risk.js';
import { ipRisks } from '../../src/checks/ip.js';
import { checkEmail } from '../../src/checks/email.js';
import { checkPhone } from '../../src/checks/phone.js';
import { checkAddress } from '../../src/checks/address.js';
import { orderRisks } from '../../src/domain/risk.js';

const rows = testValues();
const of = (kind: string) => rows.filter((r) => r.kind === kind);
const noUa = { bot: false, crawler: false, headless: false };

describe('testValues', () => {
  it('testValues: every contract range and value is listed', () => {
    const values = rows.map((r) => `${r.value} ${r.example}`).join('\n');
    for (const v of ['192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24', '2001:db8::/32', 'HeadlessChrome', 'Googlebot', 'Bingbot', 'mailinator.com', 'spam-referrer.test']) {
      expect(values).toContain(v);
    }
  });

  it('testValues: each IP example gives its listed risks and level', () => {
    for (const r of of('ip')) {
      const intel = lookupIp(r.example);
      expect(r.risks, r.example).toEqual(orderRisks(ipRisks(intel)));
      expect(riskLevelOf(ipRisks(intel))).toBe(r.risk_level);
    }
    expect(lookupIp('127.0.0.1').bogon).toBe(true);
  });

  it('testValues: the bogon row names every private range, and each is a bogon with no geo or risk', () => {
    const bogon = of('ip').find((r) => r.example === '127.0.0.1')!;
    for (const cidr of ['127.0.0.0/8', '::1', '10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7']) expect(bogon.value).toContain(cidr);
    for (const cidr of bogon.value.split(', ')) {
      const first = cidr.replace(/\/\d+$/, '').replace(/(\.0|::)$/, (m) => (m === '::' ? '::1' : '.1'));
      const intel = lookupIp(first);
      expect(intel, first).toMatchObject({ valid: true, bogon: true, country_code: null, city: null });
      expect(ipRisks(intel), first).toEqual([]);
    }
  });

  it('testValues: each user agent and referrer gives its listed risks and level', () => {
    for (const r of of('user_agent')) {
      const risks = sessionRisks({ ua: parseUserAgent(r.example), ip: null, country_code: null, referrer_domain: null, excluded_countries: [] });
      expect(risks, r.example).toEqual(r.risks);
      expect(riskLevelOf(risks)).toBe(r.risk_level);
    }
    for (const r of of('referrer')) {
      const risks = sessionRisks({ ua: noUa, ip: null, country_code: null, referrer_domain: new URL(r.example).hostname, excluded_countries: [] });
      expect(risks).toEqual(r.risks);
      expect(riskLevelOf(risks)).toBe(r.risk_level);
    }
  });

  it('testValues: the email, phone and address examples check as described', () => {
    const [disposable, free, business, malformed] = of('email');
    expect(checkEmail(disposable.example).disposable).toBe(true);
    expect(checkEmail(free.example)).toMatchObject({ free: true, normalized_email: 'jane.doe@gmail.com' });
    expect(checkEmail(business.example, 'Jane Doe')).toMatchObject({ business: true, name_match: true });
    expect(checkEmail(malformed.example).valid).toBe(false);
    const [local, intl, mobile, bad] = of('phone');
    expect(checkPhone(local.example, 'US')).toMatchObject({ valid: true, phone: '+12126647665', type: 'fixed_line_or_mobile' });
    expect(checkPhone(intl.example, 'US')).toMatchObject({ valid: true, phone: '+442079460958', country_code: 'GB', type: 'fixed_line' });
    expect(checkPhone(mobile.example, 'US')).toMatchObject({ valid: true, phone: '+4915123456789', country_code: 'DE', type: 'mobile' });
    expect(checkPhone(bad.example, 'US').valid).toBe(false);
    expect(checkAddress({ address1: '1600 Amphitheatre Pkwy', city: 'Mountain View', state: 'California', country: 'United States', postal_code: '94043' }, 'US'))
      .toMatchObject({ valid: true, state_code: 'CA', country_code: 'US', postal_code_valid: true });
    expect(checkAddress({ country: 'US', postal_code: 'ABC' }, 'US')).toMatchObject({ valid: false, postal_code_valid: false });
  });
});

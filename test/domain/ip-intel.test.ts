import { describe, expect, it } from 'vitest';
import { bindAddress, ipWithoutPort, reachableHost, isLoopbackBind, isLoopbackIp, isLoopbackName, lookupIp, TEST_IP_RANGES, countryName } from '../../src/domain/ip-intel.js';
import { countryDb, createCountryLookup } from '../../src/geo/country-db.js';

const noRisk = { vpn: false, proxy: false, tor: false, hosting: false, anonymous: false };

describe('lookupIp', () => {
  it('lookupIp: 192.0.2.0/24 is clean residential US, New York', () => {
    expect(lookupIp('192.0.2.44')).toEqual({
      valid: true, ip: '192.0.2.44', version: 4, ip_network: '192.0.2', bogon: false, private: false,
      country_code: 'US', country_name: 'United States of America', city: 'New York',
      isp: 'Example Residential', timezone: 'America/New_York', ...noRisk,
    });
  });

  it('lookupIp: 198.51.100.0/24 is a GB datacenter, hosting + anonymous', () => {
    const r = lookupIp('198.51.100.7');
    expect(r).toMatchObject({ country_code: 'GB', city: 'London', timezone: 'Europe/London',
      hosting: true, anonymous: true, tor: false, vpn: false, proxy: false, bogon: false });
    expect(r.isp).toBe('Example Hosting');
  });

  it('lookupIp: 203.0.113.0/24 is a Tor exit in Berlin', () => {
    expect(lookupIp('203.0.113.250')).toMatchObject({ country_code: 'DE', country_name: 'Germany',
      city: 'Berlin', timezone: 'Europe/Berlin', tor: true, anonymous: true, hosting: false });
  });

  it('lookupIp: 2001:db8::/32 is clean residential FR with a /64 network', () => {
    const r = lookupIp('2001:DB8:0:1:0:0:0:5');
    expect(r).toMatchObject({ valid: true, version: 6, ip: '2001:db8:0:1::5', ip_network: '2001:db8:0:1::/64',
      country_code: 'FR', country_name: 'France', city: 'Paris', timezone: 'Europe/Paris', ...noRisk, bogon: false });
    expect(lookupIp('2001:db8::1').ip_network).toBe('2001:db8::/64');
    expect(lookupIp('2001:db8:aaaa:bbbb:cccc::1').ip_network).toBe('2001:db8:aaaa:bbbb::/64');
  });

  it('lookupIp: the vpn and proxy extension ranges in 198.18.0.0/15', () => {
    expect(lookupIp('198.18.0.9')).toMatchObject({ country_code: 'NL', city: 'Amsterdam', vpn: true, anonymous: true, bogon: false });
    expect(lookupIp('198.18.1.9')).toMatchObject({ country_code: 'US', city: 'Chicago', proxy: true, anonymous: true, bogon: false });
    expect(lookupIp('198.18.2.9')).toMatchObject({ bogon: true, country_code: null, ...noRisk });
  });

  it('lookupIp: TEST_IP_RANGES matches what lookupIp answers for each range', () => {
    for (const r of TEST_IP_RANGES) {
      const first = r.cidr.includes(':') ? r.cidr.replace('::/32', '::1') : r.cidr.replace(/0\/24$/, '1');
      const got = lookupIp(first);
      expect(got, r.cidr).toMatchObject({ valid: true, bogon: false, country_code: r.country_code, city: r.city,
        isp: r.isp, timezone: r.timezone, vpn: r.vpn, proxy: r.proxy, tor: r.tor, hosting: r.hosting, anonymous: r.anonymous });
    }
  });

  it.each([
    ['127.0.0.1', false], ['::1', false], ['10.1.2.3', true], ['192.168.0.10', true], ['172.16.5.4', true],
    ['fe80::1', false], ['fd00::1', true], ['0.0.0.0', false], ['::', false], ['169.254.1.1', false],
    ['224.0.0.1', false], ['100.64.0.1', false], ['255.255.255.255', false],
  ])('lookupIp: %s is a bogon with no geo and no risk', (ip, priv) => {
    const r = lookupIp(ip, () => 'US');
    expect(r).toMatchObject({ valid: true, bogon: true, private: priv, country_code: null, country_name: null,
      city: null, isp: null, timezone: null, ...noRisk });
  });

  it('lookupIp: loopback keeps its network and version', () => {
    expect(lookupIp('127.0.0.1')).toMatchObject({ version: 4, ip_network: '127.0.0' });
    expect(lookupIp('::1')).toMatchObject({ version: 6, ip: '::1', ip_network: '::/64' });
  });

  it('lookupIp: IPv4-mapped IPv6 reads as the IPv4 address; zone ids are dropped', () => {
    expect(lookupIp('::ffff:192.0.2.1')).toMatchObject({ version: 4, ip: '192.0.2.1', country_code: 'US' });
    expect(lookupIp('fe80::1%eth0')).toMatchObject({ valid: true, ip: 'fe80::1', bogon: true });
  });

  it.each(['', '   ', 'not-an-ip', '256.1.1.1', '1.2.3', '127.1', '0x7f.0.0.1', '010.0.0.1', '1.2.3.4.5',
    '2001:db8::g', ':::', '1.2.3.4/24', '💥', 'a'.repeat(5000), '192.0.2.1\u0000'])(
    'lookupIp: %j is invalid', (ip) => {
      const r = lookupIp(ip);
      expect(r.valid).toBe(false);
      expect(r).toMatchObject({ version: null, ip_network: null, country_code: null, bogon: false, ...noRisk });
      expect(r.ip.length).toBeLessThanOrEqual(100);
    });

  it('lookupIp: trims whitespace and tolerates a non-string at runtime', () => {
    expect(lookupIp('  192.0.2.1 \n').ip).toBe('192.0.2.1');
    expect(lookupIp(undefined as unknown as string).valid).toBe(false);
  });

  it('lookupIp: a public IP takes its country from the lookup, with no city/isp/timezone', () => {
    expect(lookupIp('8.8.8.8', () => 'US')).toMatchObject({ valid: true, bogon: false, country_code: 'US',
      country_name: 'United States of America', city: null, isp: null, timezone: null, ...noRisk, ip_network: '8.8.8' });
    expect(lookupIp('8.8.8.8').country_code).toBeNull();
  });

  it('lookupIp: a throwing or junk-answering lookup only loses the country', () => {
    expect(lookupIp('8.8.8.8', () => { throw new Error('boom'); }).country_code).toBeNull();
    expect(lookupIp('8.8.8.8', () => 'not a code').country_code).toBeNull();
  });

  it('countryName: English names, null for unknown', () => {
    expect(countryName('GB')).toBe('United Kingdom');
    expect(countryName('ZZ')).toBeNull();
    expect(countryName(null)).toBeNull();
  });
});

describe('country db', () => {
  it('countryDb: real public IPs get a country from the bundled database', () => {
    const db = countryDb();
    expect(db('8.8.8.8')).toBe('US');
    expect(db('81.2.69.142')).toBe('GB');
    expect(db('2001:4860:4860::8888')).toBe('US');
    expect(lookupIp('81.2.69.142', db)).toMatchObject({ country_code: 'GB', country_name: 'United Kingdom' });
  });

  it('countryDb: no answer for bogons or garbage', () => {
    expect(countryDb()('10.0.0.1')).toBeNull();
    expect(countryDb()('nope')).toBeNull();
  });

  it('createCountryLookup: a missing file answers null and never throws', () => {
    const lookup = createCountryLookup('/nonexistent/db.mmdb');
    expect(lookup('8.8.8.8')).toBeNull();
    expect(createCountryLookup(null)('8.8.8.8')).toBeNull();
  });
});

describe('isLoopbackIp', () => {
  it('isLoopbackIp: 127.0.0.0/8 and ::1 in every spelling parseStrict takes', () => {
    for (const ip of ['127.0.0.1', '127.255.1.2', ' 127.0.0.1 ', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', '::ffff:7f00:1']) {
      expect(isLoopbackIp(ip), ip).toBe(true);
    }
  });

  it('isLoopbackIp: anything else, including what only looks like it', () => {
    for (const ip of ['192.0.2.1', '1.127.0.0', '127.0.0', '127.0.0.1.5', '0177.0.0.1', '::2', '::ffff:192.0.2.1', 'localhost', '', '127.x.y.z']) {
      expect(isLoopbackIp(ip), ip).toBe(false);
    }
  });
});

describe('isLoopbackName', () => {
  it('isLoopbackName: localhost in any case, names under it, and loopback addresses bracketed or not', () => {
    for (const host of ['localhost', 'LOCALHOST', 'LocalHost', 'app.localhost', 'localhost.', '127.0.0.1', '127.0.0.2', '127.1.2.3', '::1', '[::1]', '[0:0:0:0:0:0:0:1]', ' 127.0.0.1 ']) {
      expect(isLoopbackName(host), host).toBe(true);
    }
  });

  it('isLoopbackName: anything else, including names that only start like one', () => {
    for (const host of ['0.0.0.0', '::', '[::]', '192.0.2.1', '127.example.com', '127.0.0.1.example.com', 'localhost.example.com', 'notlocalhost', '::ffff:127.0.0.1', '[::ffff:7f00:1]', '[127.0.0.1', '', '[]']) {
      expect(isLoopbackName(host), host).toBe(false);
    }
  });

  it('isLoopbackBind: loopback names and addresses, but not a name under localhost (the resolver decides where it binds)', () => {
    for (const host of ['localhost', 'LOCALHOST', 'localhost.', '127.0.0.1', '127.1.2.3', '::1', '[::1]']) expect(isLoopbackBind(host), host).toBe(true);
    for (const host of ['app.localhost', 'APP.LOCALHOST.', ' a.b.localhost ', '0.0.0.0', '192.0.2.1', '127.example.com']) expect(isLoopbackBind(host), host).toBe(false);
  });

  it('bindAddress: an IPv6 address loses its brackets (listen takes it bare); anything else is kept', () => {
    expect(bindAddress('[::1]')).toBe('::1');
    expect(bindAddress(' 127.0.0.1 ')).toBe('127.0.0.1');
    expect(bindAddress('LOCALHOST')).toBe('LOCALHOST');
    expect(bindAddress('0.0.0.0')).toBe('0.0.0.0');
  });

  it('reachableHost: localhost is named by the address it was bound to; an address or another name as given, a wildcard as loopback', () => {
    expect(reachableHost('localhost', '::1')).toBe('[::1]');
    expect(reachableHost('LOCALHOST', '127.0.0.1')).toBe('127.0.0.1');
    expect(reachableHost('127.0.0.2', '127.0.0.2')).toBe('127.0.0.2');
    expect(reachableHost('[::1]', '::1')).toBe('[::1]');
    expect(reachableHost('0.0.0.0', '0.0.0.0')).toBe('127.0.0.1');
    expect(reachableHost('::', '::')).toBe('[::1]');
    expect(reachableHost('box.example.com', '192.0.2.7')).toBe('box.example.com');
  });
});

describe('ipWithoutPort', () => {
  it('ipWithoutPort: a port and brackets are taken off the address they carry', () => {
    expect(ipWithoutPort('203.0.113.5:443')).toBe('203.0.113.5');
    expect(ipWithoutPort(' 203.0.113.5:443 ')).toBe('203.0.113.5');
    expect(ipWithoutPort('::ffff:203.0.113.5:443')).toBe('::ffff:203.0.113.5');
    expect(ipWithoutPort('[2001:db8::1]')).toBe('2001:db8::1');
    expect(ipWithoutPort('[2001:db8::1]:8443')).toBe('2001:db8::1');
    expect(ipWithoutPort('[::ffff:203.0.113.5]:80')).toBe('::ffff:203.0.113.5');
  });

  it('ipWithoutPort: a bare IPv6 address keeps its last group, and what is not an address is left as sent', () => {
    for (const v of ['2001:db8::1', '2001:db8::1:443', '::1', '::ffff:203.0.113.5', '203.0.113.5', '2001:db8::1.2.3.4',
      '203.0.113.5:99999', '[2001:db8::1]:', '[nope]:80', 'nope:80', '[2001:db8::1', '1.2.3:80', '']) {
      expect(ipWithoutPort(v), v).toBe(v);
    }
  });
});

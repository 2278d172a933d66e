// IP intelligence: reserved test ranges, bogon detection and a country lookup. Pure, no I/O:
// the country database is passed in as `countryOf` (see src/geo/country-db.ts).
import ipaddr from 'ipaddr.js';
import { countries } from './country-names.js';
import { addBounded } from './bounded-map.js';

/** Answers an ISO 3166-1 alpha-2 code for a public IP, or null when unknown. */
export interface CountryLookup {
  (ip: string): string | null;
}

export interface IpIntel {
  valid: boolean;
  /** Normalised form: dotted quad for IPv4, RFC 5952 (lower case, compressed) for IPv6. */
  ip: string;
  version: 4 | 6 | null;
  /** IPv4: first three octets (`192.0.2`); IPv6: the /64 in RFC 5952 form (`2001:db8:0:1::/64`). */
  ip_network: string | null;
  bogon: boolean;
  private: boolean;
  country_code: string | null;
  country_name: string | null;
  city: string | null;
  isp: string | null;
  timezone: string | null;
  vpn: boolean;
  proxy: boolean;
  tor: boolean;
  hosting: boolean;
  anonymous: boolean;
}

export interface TestIpRange {
  cidr: string;
  label: string;
  country_code: string;
  city: string;
  isp: string;
  timezone: string;
  vpn: boolean;
  proxy: boolean;
  tor: boolean;
  hosting: boolean;
  anonymous: boolean;
  /** The session/check risk level these flags lead to (contract §4), for docs and `vtr testvalues`. */
  risk_level: 'normal' | 'suspicious' | 'invalid';
  /** true for ranges the emulator adds beyond the contract's table. */
  extension: boolean;
}

const flags = { vpn: false, proxy: false, tor: false, hosting: false, anonymous: false };

// Contract §4 test ranges, plus vpn/proxy ranges carved from the 198.18.0.0/15 benchmarking block
// (RFC 2544), which never appears on the public internet.
export const TEST_IP_RANGES: readonly TestIpRange[] = [
  { cidr: '192.0.2.0/24', label: 'clean residential', country_code: 'US', city: 'New York',
    isp: 'Example Residential', timezone: 'America/New_York', ...flags, risk_level: 'normal', extension: false },
  { cidr: '198.51.100.0/24', label: 'datacenter', country_code: 'GB', city: 'London',
    isp: 'Example Hosting', timezone: 'Europe/London', ...flags, hosting: true, anonymous: true,
    risk_level: 'suspicious', extension: false },
  { cidr: '203.0.113.0/24', label: 'Tor exit', country_code: 'DE', city: 'Berlin',
    isp: 'Example Tor Exit', timezone: 'Europe/Berlin', ...flags, tor: true, anonymous: true,
    risk_level: 'invalid', extension: false },
  { cidr: '2001:db8::/32', label: 'clean residential IPv6', country_code: 'FR', city: 'Paris',
    isp: 'Example Residential', timezone: 'Europe/Paris', ...flags, risk_level: 'normal', extension: false },
  { cidr: '198.18.0.0/24', label: 'VPN', country_code: 'NL', city: 'Amsterdam',
    isp: 'Example VPN', timezone: 'Europe/Amsterdam', ...flags, vpn: true, anonymous: true,
    risk_level: 'suspicious', extension: true },
  { cidr: '198.18.1.0/24', label: 'open proxy', country_code: 'US', city: 'Chicago',
    isp: 'Example Proxy', timezone: 'America/Chicago', ...flags, proxy: true, anonymous: true,
    risk_level: 'suspicious', extension: true },
];

const parsedRanges = TEST_IP_RANGES.map((r) => ({ range: r, cidr: ipaddr.parseCIDR(r.cidr) }));

// Non-routable ranges as named by ipaddr.js; everything here is a bogon.
const BOGON_V4 = new Set(['unspecified', 'broadcast', 'multicast', 'linkLocal', 'loopback',
  'carrierGradeNat', 'private', 'reserved']);
const BOGON_V6 = new Set(['unspecified', 'linkLocal', 'multicast', 'loopback', 'uniqueLocal',
  'deprecatedSiteLocal', 'discard', 'benchmarking', 'reserved', 'deprecatedOrchid', 'orchid2']);
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/** English country name for an alpha-2 code, or null. */
export function countryName(code: string | null | undefined): string | null {
  if (!code) return null;
  try {
    return countries().getName(code, 'en') ?? null;
  } catch {
    return null;
  }
}

function emptyIntel(ip: string): IpIntel {
  return { valid: false, ip, version: null, ip_network: null, bogon: false, private: false,
    country_code: null, country_name: null, city: null, isp: null, timezone: null, ...flags };
}

// Strict parsing: only dotted-quad IPv4 (ipaddr.js would also take `127.1` or `0x7f.0.0.1`) or
// IPv6; an IPv4-mapped IPv6 address is read as the IPv4 it carries; a zone id is dropped.
function parseStrict(s: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  if (ipaddr.IPv4.isValidFourPartDecimal(s)) return ipaddr.IPv4.parse(s);
  if (!s.includes(':') || !ipaddr.IPv6.isValid(s)) return null;
  const v6 = ipaddr.IPv6.parse(s);
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address();
  v6.zoneId = undefined;
  return v6;
}

function networkOf(addr: ipaddr.IPv4 | ipaddr.IPv6): string {
  if (addr.kind() === 'ipv4') return addr.toByteArray().slice(0, 3).join('.');
  const parts = (addr as ipaddr.IPv6).parts.slice(0, 4).concat([0, 0, 0, 0]);
  return `${new ipaddr.IPv6(parts).toRFC5952String()}/64`;
}

// Every change to a session looks its IP up again, and strict parsing costs more than the rest of
// the derivation: answers are cached per lookup function (oldest entry evicted first).
const CACHE_MAX = 2000;
const NO_LOOKUP: CountryLookup = () => null;
const caches = new WeakMap<CountryLookup, Map<string, IpIntel>>();

/** Whether `ip` reads as one IPv4 (dotted quad) or IPv6 address, as lookupIp parses it. */
export function isIpAddress(ip: string): boolean {
  const raw = ip.trim();
  if (raw.length === 0 || raw.length > 100) return false;
  try {
    return parseStrict(raw) !== null;
  } catch {
    return false;
  }
}

/**
 * The address an IP value carries as a platform hands it over: `203.0.113.5:443` and
 * `::ffff:203.0.113.5:443` (an IPv4 address with a port), `[2001:db8::1]` and `[2001:db8::1]:8443`
 * (an IPv6 address in brackets, with or without a port) read as the address; anything else is
 * answered as given. A bare IPv6 address is never cut: its last group is not a port (an address
 * ending in a dotted quad cannot have another group after it, so `...1.2.3.4:443` is unambiguous).
 */
export function ipWithoutPort(value: string): string {
  const s = value.trim();
  if (s.length > 100) return value;
  const m = /^\[([^[\]]+)\](?::(\d{1,5}))?$/.exec(s) ?? /^([^[\]]*\.\d{1,3}):(\d{1,5})$/.exec(s);
  if (!m || (m[2] !== undefined && Number(m[2]) > 65_535)) return value;
  return isIpAddress(m[1]) ? m[1] : value;
}

/** Whether `ip` is a loopback address (127.0.0.0/8, ::1, or 127.x mapped into IPv6): this machine. */
export function isLoopbackIp(ip: string): boolean {
  const s = ip.trim();
  // parseStrict reads IPv4 only as four decimal parts, so an IPv4 loopback (127.0.0.0/8) starts with
  // "127.": every other IPv4 address is answered without parsing (a visitor check asks for each).
  if (!s.includes(':') && !s.startsWith('127.')) return false;
  try {
    return parseStrict(s)?.range() === 'loopback';
  } catch {
    return false;
  }
}

/**
 * Whether a host, as a user writes it (a bind address, a URL's or a Host header's name, without a
 * port), is this machine: `localhost` or a name under it (RFC 6761), in any case, or a loopback IP
 * (127.0.0.0/8, ::1), bracketed or not; an IPv4-mapped spelling (`::ffff:127.0.0.1`) is not taken as
 * one, as a bind address is not written so. The one answer to "is this loopback" for `vtr serve --host`,
 * `startEmulator({ host })`, the Host names the emulator answers to and the CLI's local base URLs.
 */
export function isLoopbackName(host: string): boolean {
  const name = host.trim().toLowerCase().replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  const ip = bindAddress(name);
  return isLoopbackIp(ip) && !ip.includes('ffff');
}

/**
 * Whether listening on `host` keeps the server on this machine: a loopback name as above, but not a
 * name under localhost, which `listen()` leaves to the system's resolver (nothing there has to keep
 * it on loopback), so it needs the admin token as any other address does.
 */
export function isLoopbackBind(host: string): boolean {
  return isLoopbackName(host) && !/\.localhost\.?$/i.test(host.trim());
}

/** A host as `listen()` takes it: an IPv6 address without the brackets a URL puts around it. */
export function bindAddress(host: string): string {
  const name = host.trim();
  return /^\[(.+)\]$/.exec(name)?.[1] ?? name;
}

/** The host a URL names for a server bound to `host`: a wildcard (0.0.0.0, ::) is reached through loopback; IPv6 in brackets. */
export function urlHost(host: string): string {
  const reach = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return reach.includes(':') ? `[${reach}]` : reach;
}

/**
 * The host a printed URL names for a server asked to listen on `host` and bound to `address`. A
 * loopback name (localhost) is bound to the one address it resolved to (::1 on some machines,
 * 127.0.0.1 on others), which a client preferring the other family never tries: the URL names that
 * address. An address, or another name (given for other machines to use), is named as given.
 */
export function reachableHost(host: string, address: string): string {
  const given = bindAddress(host);
  return urlHost(isLoopbackName(given) && !isIpAddress(given) ? address : given);
}

export function lookupIp(ip: string, countryOf?: CountryLookup): IpIntel {
  if (typeof ip !== 'string' || ip.length > 100) return lookupUncached(ip, countryOf);
  const key = countryOf ?? NO_LOOKUP;
  let cache = caches.get(key);
  if (!cache) caches.set(key, (cache = new Map()));
  const hit = cache.get(ip);
  if (hit) return { ...hit };
  const intel = lookupUncached(ip, countryOf);
  addBounded(cache, ip, intel, CACHE_MAX);
  return { ...intel };
}

function lookupUncached(ip: string, countryOf?: CountryLookup): IpIntel {
  const raw = typeof ip === 'string' ? ip.trim() : '';
  // No address is longer than ~50 chars; refuse absurd inputs before any parsing.
  if (raw.length === 0 || raw.length > 100) return emptyIntel(raw.slice(0, 100));
  let addr: ipaddr.IPv4 | ipaddr.IPv6 | null;
  try {
    addr = parseStrict(raw);
  } catch {
    addr = null;
  }
  if (!addr) return emptyIntel(raw);

  const v4 = addr.kind() === 'ipv4';
  const base: IpIntel = {
    ...emptyIntel(v4 ? addr.toString() : (addr as ipaddr.IPv6).toRFC5952String()),
    valid: true,
    version: v4 ? 4 : 6,
    ip_network: networkOf(addr),
  };

  // Test ranges first: they sit inside ranges ipaddr.js calls "reserved".
  const hit = parsedRanges.find((p) => p.cidr[0].kind() === addr.kind() && addr.match(p.cidr));
  if (hit) {
    const r = hit.range;
    return { ...base, country_code: r.country_code, country_name: countryName(r.country_code),
      city: r.city, isp: r.isp, timezone: r.timezone, vpn: r.vpn, proxy: r.proxy, tor: r.tor,
      hosting: r.hosting, anonymous: r.anonymous };
  }

  const range = addr.range();
  const bogon = v4
    ? BOGON_V4.has(range)
    : BOGON_V6.has(range) || !addr.match(GLOBAL_UNICAST_V6);
  if (bogon) return { ...base, bogon: true, private: range === 'private' || range === 'uniqueLocal' };

  let code: string | null = null;
  try {
    const c = countryOf?.(base.ip) ?? null;
    code = c && /^[A-Z]{2}$/.test(c) ? c : null;
  } catch {
    code = null; // a broken lookup only loses the country
  }
  return { ...base, country_code: code, country_name: countryName(code) };
}

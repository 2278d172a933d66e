// IP check: the `ip` section of a visitor check result, built on lookupIp.
import { lookupIp, type CountryLookup, type IpIntel } from '../domain/ip-intel.js';
import { countryDb } from '../geo/country-db.js';

export interface IpCheck {
  success: boolean;
  valid: boolean;
  ip: string;
  ip_network: string | null;
  version: 4 | 6 | null;
  isp: string | null;
  country_code: string | null;
  country_name: string | null;
  city: string | null;
  timezone: string | null;
  in_country: boolean | null;
  vpn: boolean;
  proxy: boolean;
  tor: boolean;
  hosting: boolean;
  anonymous: boolean;
  bogon: boolean;
  private: boolean;
}

type RiskFlags = Pick<IpIntel, 'tor' | 'vpn' | 'proxy' | 'hosting' | 'anonymous'>;

/** Risk labels an IP contributes, in a stable order. */
export function ipRisks(intel: RiskFlags): string[] {
  const out: string[] = [];
  if (intel.tor) out.push('tor');
  if (intel.vpn) out.push('vpn');
  if (intel.proxy) out.push('proxy');
  if (intel.hosting) out.push('hosting');
  if (intel.anonymous) out.push('anonymous');
  return out;
}

/** `countryOf` defaults to the bundled country database. */
export function checkIp(input: string, siteCountry: string | null, countryOf: CountryLookup = countryDb()): IpCheck {
  const i = lookupIp(input, countryOf);
  const site = typeof siteCountry === 'string' ? siteCountry.toUpperCase() : null;
  return {
    success: true,
    valid: i.valid,
    ip: i.ip,
    ip_network: i.ip_network,
    version: i.version,
    isp: i.isp,
    country_code: i.country_code,
    country_name: i.country_name,
    city: i.city,
    timezone: i.timezone,
    in_country: i.country_code && site ? i.country_code === site : null,
    vpn: i.vpn,
    proxy: i.proxy,
    tor: i.tor,
    hosting: i.hosting,
    anonymous: i.anonymous,
    bogon: i.bogon,
    private: i.private,
  };
}

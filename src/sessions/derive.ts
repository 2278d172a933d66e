// Fills a Session's derived fields from what the page views told us, the site's settings and the
// risks its visitor checks found. Pure: the same inputs always give the same session.
import type { PageView, Session } from '../domain/session.js';
import type { Site } from '../domain/site.js';
import { deriveTrafficSource } from '../domain/traffic-source.js';
import { parseUserAgent } from '../domain/user-agent.js';
import { conversionEventsOf, engagementGiven } from '../domain/engagement.js';
import { riskLevelOf, sessionRisks } from '../domain/risk.js';
import { lookupIp, type CountryLookup } from '../domain/ip-intel.js';
import { ipAllowed } from '../domain/ip-allowlist.js';
import { canonicalLanguage, canonicalTimezone } from '../domain/locale.js';

// Any absolute URL parses against this; it only gives a relative landing path ("/p?x=1") its pathname.
const RELATIVE_BASE = 'http://relative.invalid';

function splitUrl(url: string): { hostname: string | null; path: string | null } {
  try {
    const u = new URL(url);
    return { hostname: u.hostname || null, path: u.pathname || '/' };
  } catch {
    // A path relative to the site (management API, library): its path without the query, as for a full URL.
    if (/^[/?#]/.test(url) && !url.startsWith('//')) {
      try {
        return { hostname: null, path: new URL(url, RELATIVE_BASE).pathname.slice(0, 2048) };
      } catch {
        // kept as given, below
      }
    }
    return { hostname: null, path: url ? url.slice(0, 2048) : null };
  }
}

/** The fields a session takes from its first page view. */
export function entryFields(pv: PageView, countryOf?: CountryLookup): Partial<Session> {
  const entry = splitUrl(pv.url);
  const ua = parseUserAgent(pv.user_agent ?? null);
  const ip = pv.ip ? lookupIp(pv.ip, countryOf) : null;
  const src = deriveTrafficSource(pv.url, pv.referrer ?? null, entry.hostname);
  return {
    entry_hostname: entry.hostname,
    entry_path: entry.path,
    exit_hostname: entry.hostname,
    exit_path: entry.path,
    ...src,
    ip: ip?.valid ? ip.ip : null,
    ip_network: ip?.ip_network ?? null,
    isp: ip?.isp ?? null,
    country_code: ip?.country_code ?? null,
    city: ip?.city ?? null,
    device_type: ua.device_type,
    browser_name: ua.browser_name,
    browser_family: ua.browser_family,
    browser_version: ua.browser_version,
    os_family: ua.os_family,
    os_version: ua.os_version,
    // What the browser reports, when it is a valid tag/zone; else the time zone of the IP's range.
    language: canonicalLanguage(pv.language),
    timezone: canonicalTimezone(pv.timezone) ?? (ip?.valid ? ip.timezone : null),
    user_agent: pv.user_agent ?? null,
  };
}

export function exitFields(pv: PageView): Partial<Session> {
  const exit = splitUrl(pv.url);
  return { exit_hostname: exit.hostname, exit_path: exit.path };
}

/** What the derived fields are computed from (besides whether a conversion event happened). */
export type DerivationInput = Pick<Session, 'user_agent' | 'ip' | 'country_code' | 'referrer_domain' | 'page_views' | 'duration'>;
export type DerivedFields = Pick<Session, 'site_name' | 'risks' | 'risk_level' | 'engagement_level'>;

/**
 * Engagement, risks, risk level (and the site's current name) of a session with these inputs;
 * `converted`: one of its custom events is one of the site's conversion events.
 */
export function derivedLevels(s: DerivationInput, converted: boolean, site: Site, checkRisks: string[], countryOf?: CountryLookup): DerivedFields {
  const ua = parseUserAgent(s.user_agent);
  const ip = s.ip ? lookupIp(s.ip, countryOf) : null;
  const risks = sessionRisks({
    ua,
    ip: ip && ip.valid ? ip : null,
    country_code: s.country_code,
    referrer_domain: s.referrer_domain,
    excluded_countries: site.excluded_countries,
    extra: checkRisks,
  });
  return {
    site_name: site.name,
    risks,
    risk_level: riskLevelOf(risks, { allowlisted: ipAllowed(s.ip, site.ip_allowlist) }),
    engagement_level: engagementGiven(
      { page_views: s.page_views ?? 0, duration: s.duration ?? 0 },
      converted,
      site,
    ),
  };
}

/** Whether the site counts one of a session's custom events (`has(name)`) as a conversion. */
export function isConverted(site: Site, has: (name: string) => boolean): boolean {
  return conversionEventsOf(site).some(has);
}

/** Recomputes engagement, risks and risk level; call after any change to a session. */
export function withDerivedLevels(s: Session, site: Site, checkRisks: string[], countryOf?: CountryLookup): Session {
  return { ...s, ...derivedLevels(s, isConverted(site, (c) => s.custom_events.includes(c)), site, checkRisks, countryOf) };
}

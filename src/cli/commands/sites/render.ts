import { keyValues, table } from '../../output.js';

export interface SiteJson {
  site_id: string; name: string; plan: string; country: string | null; owner_email: string | null;
  site_key: string; secret_key: string; conversion_events: string[]; bounce_seconds: number;
  excluded_countries: string[]; ip_allowlist: string[]; created_at: string; is_default?: boolean;
}

export const renderSites = (sites: SiteJson[]) =>
  table(['SITE', 'NAME', 'PLAN', 'COUNTRY', 'SITE KEY', 'SECRET KEY'], sites.map((s) => [
    s.is_default ? `${s.site_id} (default)` : s.site_id, s.name, s.plan, s.country, s.site_key, s.secret_key,
  ]));

export const renderSite = (s: SiteJson) =>
  keyValues([
    ['site_id', s.site_id], ['name', s.name], ['plan', s.plan], ['country', s.country], ['owner_email', s.owner_email],
    ['site_key', s.site_key], ['secret_key', s.secret_key], ['conversion_events', s.conversion_events],
    ['bounce_seconds', s.bounce_seconds], ['excluded_countries', s.excluded_countries], ['ip_allowlist', s.ip_allowlist],
    ['created_at', s.created_at],
  ]);

import { UsageError } from '../../errors.js';
import { wholeNumber } from '../../whole-number.js';

export interface SiteFlags {
  name?: string;
  plan?: string;
  country?: string;
  ownerEmail?: string;
  conversionEvents?: string;
  bounceSeconds?: string;
  excludedCountries?: string;
  ipAllowlist?: string;
}

const list = (v: string) => v.split(',').map((s) => s.trim()).filter(Boolean);

/** Flags → the management API's site body (only the fields given). */
export function siteBody(f: SiteFlags): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (f.name !== undefined) body.name = f.name;
  if (f.plan !== undefined) {
    if (f.plan !== 'free' && f.plan !== 'paid') throw new UsageError(`--plan: "${f.plan}" is not a plan; use free or paid`);
    body.plan = f.plan;
  }
  if (f.country !== undefined) body.country = f.country.toUpperCase();
  if (f.ownerEmail !== undefined) body.owner_email = f.ownerEmail;
  if (f.conversionEvents !== undefined) body.conversion_events = list(f.conversionEvents);
  if (f.bounceSeconds !== undefined) {
    // At most a day, as the sites API takes.
    body.bounce_seconds = wholeNumber('--bounce-seconds', f.bounceSeconds, 0, 86_400);
  }
  if (f.excludedCountries !== undefined) body.excluded_countries = list(f.excludedCountries).map((c) => c.toUpperCase());
  if (f.ipAllowlist !== undefined) body.ip_allowlist = list(f.ipAllowlist);
  return body;
}

// Channel and source_* fields of a session, derived from the landing URL and the referrer (contract §4).
// Pure: no I/O, never throws on malformed input.

import type { Channel, Session } from './session.js';

/** The session's traffic fields; a derived source always has a channel. */
export type TrafficSource = Pick<
  Session,
  'source' | 'source_subtype' | 'source_id' | 'source_medium' | 'source_campaign' | 'source_group' | 'source_content' | 'source_term' | 'referrer' | 'referrer_domain'
> & { channel: Channel };

export interface ClickIdParam {
  /** Query parameter the ad network appends to the landing URL. */
  param: string;
  /** Value of `source` for a session carrying it. */
  source: string;
  /** Value of `source_group` for a session carrying it. */
  group: 'paid_search' | 'paid_social';
}

/** Recognised ad click ids, in precedence order (first match wins when a URL carries several). */
export const CLICK_ID_PARAMS: readonly ClickIdParam[] = [
  { param: 'gclid', source: 'google', group: 'paid_search' },
  { param: 'gbraid', source: 'google', group: 'paid_search' },
  { param: 'wbraid', source: 'google', group: 'paid_search' },
  { param: 'msclkid', source: 'microsoft', group: 'paid_search' },
  { param: 'fbclid', source: 'meta', group: 'paid_social' },
  { param: 'ttclid', source: 'tiktok', group: 'paid_social' },
  { param: 'li_fat_id', source: 'linkedin', group: 'paid_social' },
];

/** utm_* parameter → Session field; applied in every channel. */
export const UTM_FIELDS = {
  utm_medium: 'source_medium',
  utm_campaign: 'source_campaign',
  utm_content: 'source_content',
  utm_term: 'source_term',
} as const;

export type ReferrerGroup = 'organic_search' | 'organic_social' | 'referral';

/**
 * Well-known referrer domains → source_group of a `referral` session. A rule matches the domain
 * itself and any subdomain; an entry ending in '.' matches that name under a top-level domain or a
 * country's co./com., e.g. `google.` matches google.com and google.co.uk. Anything else is `referral`.
 */
export const REFERRER_GROUPS: readonly { domain: string; group: Exclude<ReferrerGroup, 'referral'> }[] = [
  { domain: 'google.', group: 'organic_search' },
  { domain: 'bing.com', group: 'organic_search' },
  { domain: 'duckduckgo.com', group: 'organic_search' },
  { domain: 'search.yahoo.com', group: 'organic_search' },
  { domain: 'yandex.', group: 'organic_search' },
  { domain: 'baidu.com', group: 'organic_search' },
  { domain: 'ecosia.org', group: 'organic_search' },
  { domain: 'search.brave.com', group: 'organic_search' },
  { domain: 'facebook.com', group: 'organic_social' },
  { domain: 'instagram.com', group: 'organic_social' },
  { domain: 'linkedin.com', group: 'organic_social' },
  { domain: 'lnkd.in', group: 'organic_social' },
  { domain: 't.co', group: 'organic_social' },
  { domain: 'twitter.com', group: 'organic_social' },
  { domain: 'x.com', group: 'organic_social' },
  { domain: 'reddit.com', group: 'organic_social' },
  { domain: 'tiktok.com', group: 'organic_social' },
  { domain: 'youtube.com', group: 'organic_social' },
  { domain: 'pinterest.com', group: 'organic_social' },
];

// Any absolute URL parses against this; it only lets relative landing paths ("/p?gclid=x") keep their query.
const RELATIVE_BASE = 'http://relative.invalid';

function parseUrl(raw: string | null | undefined): URL | null {
  if (typeof raw !== 'string' || raw.trim() === '') return null;
  try {
    return new URL(raw.trim());
  } catch {
    return null;
  }
}

/** Landing URL: absolute, or a path/query relative to the site (host then unknown). */
function parseLanding(raw: string): { params: URLSearchParams; host: string | null } | null {
  const abs = parseUrl(raw);
  if (abs) return { params: abs.searchParams, host: normaliseHost(abs.hostname) };
  const t = typeof raw === 'string' ? raw.trim() : '';
  if (!t.startsWith('/') && !t.startsWith('?')) return null;
  try {
    return { params: new URL(t, RELATIVE_BASE).searchParams, host: null };
  } catch {
    return null;
  }
}

/** Lowercase, drop a trailing dot and a leading `www.`; empty → null. */
export function normaliseHost(host: string | null | undefined): string | null {
  if (!host) return null;
  let h = host.trim().toLowerCase();
  if (h.endsWith('.')) h = h.slice(0, -1);
  if (h.startsWith('www.')) h = h.slice(4);
  return h === '' ? null : h;
}

function param(params: URLSearchParams | undefined, name: string): string | null {
  const v = params?.get(name);
  if (v == null) return null;
  const t = v.trim();
  return t === '' ? null : t;
}

function clickIdIn(params: URLSearchParams | undefined): { entry: ClickIdParam; value: string } | null {
  for (const entry of CLICK_ID_PARAMS) {
    const value = param(params, entry.param);
    if (value !== null) return { entry, value };
  }
  return null;
}

/** The ad click id a landing URL carries, if any (a new one starts a new session). */
export function clickIdOf(url: string): { param: string; value: string } | null {
  const found = clickIdIn(parseLanding(url)?.params);
  return found ? { param: found.entry.param, value: found.value } : null;
}

// The suffix a search engine's country site sits under: one label (com, de) or a country's
// second level (co.uk, com.au), so google.github.io or google.evil.com are not Google.
function isCountrySuffix(labels: string[]): boolean {
  if (labels.length === 1) return labels[0]!.length > 0;
  return labels.length === 2 && (labels[0] === 'co' || labels[0] === 'com') && /^[a-z]{2}$/.test(labels[1]!);
}

/** source_group for a referral from `domain` (already normalised). */
export function referrerGroupOf(domain: string): ReferrerGroup {
  for (const { domain: rule, group } of REFERRER_GROUPS) {
    if (rule.endsWith('.')) {
      // "google." matches google.com / google.co.uk but not mail.google.com (not a search page).
      const labels = domain.split('.');
      if (labels[0] === rule.slice(0, -1) && isCountrySuffix(labels.slice(1))) return group;
    } else if (domain === rule || domain.endsWith(`.${rule}`)) {
      return group;
    }
  }
  return 'referral';
}

export function deriveTrafficSource(
  url: string,
  referrer: string | null,
  siteHostname?: string | null,
): TrafficSource {
  const landing = parseLanding(url);
  const params = landing?.params;
  const ref = parseUrl(referrer);
  const referrerDomain = ref ? normaliseHost(ref.hostname) : null;

  const out: TrafficSource = {
    channel: 'direct',
    source: null,
    source_subtype: null,
    source_id: null,
    source_medium: param(params, 'utm_medium'),
    source_campaign: param(params, 'utm_campaign'),
    source_group: null,
    source_content: param(params, 'utm_content'),
    source_term: param(params, 'utm_term'),
    // Kept only when it parses, so junk never reaches the session.
    referrer: ref ? (referrer as string).trim() : null,
    referrer_domain: referrerDomain,
  };

  const click = clickIdIn(params);
  if (click) {
    out.channel = 'paid';
    out.source = click.entry.source;
    out.source_subtype = click.entry.param;
    out.source_id = click.value;
    out.source_group = click.entry.group;
    return out;
  }

  const utmSource = param(params, 'utm_source');
  if (utmSource !== null) {
    out.channel = 'other';
    out.source = utmSource;
    return out;
  }

  // Internal navigation (same host as the landing page, or the site's own hostname) is not a referral.
  const internal =
    referrerDomain !== null &&
    (referrerDomain === landing?.host || referrerDomain === normaliseHost(siteHostname));
  if (referrerDomain !== null && !internal) {
    out.channel = 'referral';
    out.source = referrerDomain;
    out.source_group = referrerGroupOf(referrerDomain);
  }
  return out;
}

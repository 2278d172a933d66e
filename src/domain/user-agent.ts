// Device fields and bot/crawler flags of a session from its user agent (contract §4, reserved test values).

import { lazy } from './lazy.js';

const uaParser = lazy<typeof import('ua-parser-js')>('ua-parser-js');
const isbotLib = lazy<typeof import('isbot')>('isbot');
import type { DeviceType, Session } from './session.js';
import { addBounded } from './bounded-map.js';

/** The session's device fields, and what the user agent says of automation. */
export type UserAgentInfo = Pick<Session, 'device_type' | 'browser_name' | 'browser_family' | 'browser_version' | 'os_family' | 'os_version'> & {
  /** Automated, non-crawler client (headless browsers, scripts, scrapers) → risk `bot`. */
  bot: boolean;
  /** Well-known search-engine crawler → risk `crawler` (never also `bot`). */
  crawler: boolean;
  headless: boolean;
};

/** Headless browsers: always `bot`, even if they also claim to be a crawler. */
export const HEADLESS_PATTERN = /HeadlessChrome|PhantomJS/i;

/** Well-known search-engine crawlers (risk `crawler` → `unwanted`, not `bot`). */
export const CRAWLER_PATTERNS: readonly { name: string; pattern: RegExp }[] = [
  { name: 'Googlebot', pattern: /Googlebot|AdsBot-Google|Mediapartners-Google|Google-InspectionTool|GoogleOther|Storebot-Google/i },
  { name: 'Bingbot', pattern: /bingbot|msnbot|adidxbot|BingPreview/i },
  { name: 'DuckDuckBot', pattern: /DuckDuckBot/i },
  { name: 'YandexBot', pattern: /YandexBot|YandexMobileBot|YandexImages/i },
  { name: 'Baiduspider', pattern: /Baiduspider/i },
  { name: 'Applebot', pattern: /Applebot/i },
  { name: 'Yahoo Slurp', pattern: /Yahoo! Slurp/i },
  { name: 'PetalBot', pattern: /PetalBot/i },
  { name: 'SeznamBot', pattern: /SeznamBot/i },
  { name: 'Sogou', pattern: /Sogou web spider/i },
];

// OS names ua-parser-js v1 gives for desktop systems: no device type + one of these → `computer`.
const DESKTOP_OS = new Set(
  [
    'Windows', 'Mac OS', 'macOS', 'Linux', 'Chromium OS', 'Chrome OS', 'Ubuntu', 'Debian', 'Fedora',
    'Mint', 'Arch', 'Gentoo', 'SUSE', 'openSUSE', 'RedHat', 'Red Hat', 'CentOS', 'Mandriva', 'Slackware',
    'Kubuntu', 'Xubuntu', 'Lubuntu', 'Zenwalk', 'Linpus', 'Deepin', 'elementary OS', 'Manjaro', 'FreeBSD',
    'OpenBSD', 'NetBSD', 'DragonFly', 'PC-BSD', 'GhostBSD', 'Solaris', 'Unix', 'AIX', 'HP-UX', 'Haiku',
    'BeOS', 'OS/2', 'Amiga', 'Morph OS', 'RISC OS', 'Plan9', 'Minix', 'Hurd', 'GNU', 'Fuchsia',
  ].map((s) => s.toLowerCase()),
);

/**
 * browser_family: the product regardless of platform or embedding, so reports group
 * "Chrome", "Chrome WebView", "Chrome Headless", "Chromium" under Chrome; "Mobile Safari" and
 * "Safari" under Safari; "Firefox Focus"/"Mobile Firefox" under Firefox; "Opera Mini"/"Opera GX"
 * under Opera; "IE"/"IEMobile" under Internet Explorer. Chromium-based products with their own
 * brand (Edge, Opera, Samsung Internet, …) keep that brand. Anything else: ua-parser's name.
 */
export const BROWSER_FAMILIES: readonly { family: string; pattern: RegExp }[] = [
  { family: 'Chrome', pattern: /^(Chrome|Chromium)(\s|$)/i },
  { family: 'Firefox', pattern: /^(Mobile )?Firefox(\s|$)/i },
  { family: 'Safari', pattern: /^(Mobile )?Safari$/i },
  { family: 'Edge', pattern: /^Edge(\s|$)/i },
  { family: 'Opera', pattern: /^Opera(\s|$)/i },
  { family: 'Samsung Internet', pattern: /^Samsung Internet$/i },
  { family: 'Internet Explorer', pattern: /^IE(Mobile)?$/i },
];

export function browserFamilyOf(name: string | null): string | null {
  if (!name) return null;
  for (const { family, pattern } of BROWSER_FAMILIES) if (pattern.test(name)) return family;
  return name;
}

const EMPTY: UserAgentInfo = Object.freeze({
  device_type: null,
  browser_name: null,
  browser_family: null,
  browser_version: null,
  os_family: null,
  os_version: null,
  bot: false,
  crawler: false,
  headless: false,
});

// Same UAs repeat across page views, and parsing costs tens of µs; oldest entry is evicted first.
const CACHE_MAX = 1000;
// Longer strings are rare and attacker-controlled: parse them but don't let them fill the cache.
const CACHE_MAX_KEY_LENGTH = 1024;
const cache = new Map<string, UserAgentInfo>();

function orNull(v: string | undefined): string | null {
  return v === undefined || v === '' ? null : v;
}

function parse(ua: string): UserAgentInfo {
  const r = new (uaParser().UAParser)(ua).getResult();
  const headless = HEADLESS_PATTERN.test(ua);
  const crawler = !headless && CRAWLER_PATTERNS.some((c) => c.pattern.test(ua));
  const bot = headless || (!crawler && isbotLib().isbot(ua));

  const osName = orNull(r.os.name);
  let device_type: DeviceType | null = null;
  if (r.device.type === 'mobile') device_type = 'mobile';
  else if (r.device.type === 'tablet') device_type = 'tablet';
  // Other ua-parser types (smarttv, console, wearable, embedded, xr) are indeterminate here.
  else if (r.device.type === undefined && osName !== null && DESKTOP_OS.has(osName.toLowerCase())) {
    device_type = 'computer';
  }

  const browserName = orNull(r.browser.name);
  return {
    device_type,
    browser_name: browserName,
    browser_family: browserFamilyOf(browserName),
    browser_version: orNull(r.browser.version),
    os_family: osName,
    os_version: orNull(r.os.version),
    bot,
    crawler,
    headless,
  };
}

/** Parse a user agent; null/empty gives all-null fields and no flags (local tools often send none). */
export function parseUserAgent(ua: string | null): UserAgentInfo {
  if (typeof ua !== 'string' || ua.trim() === '') return { ...EMPTY };
  const hit = cache.get(ua);
  if (hit) return { ...hit };
  const info = parse(ua);
  if (ua.length <= CACHE_MAX_KEY_LENGTH) {
    addBounded(cache, ua, info, CACHE_MAX);
  }
  return { ...info };
}

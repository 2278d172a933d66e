// What `vtr sessions simulate` sends: a deterministic plan of sessions (visitor, device, network,
// channel, page views, custom events) from a seeded PRNG. Pure: the same seed and count always give
// the same plan. The weights below are the documented distribution (docs/checks.md).
import { TEST_USER_AGENTS } from '../domain/test-values.js';
import { isNumericSeed } from '../domain/seed.js';

/** mulberry32: small, fast, good enough for test traffic; the state is one 32-bit integer. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A seed from the CLI: an integer as itself, any other text hashed (FNV-1a). */
export function seedOf(seed: string | number): number {
  if (typeof seed === 'number') return seed >>> 0;
  if (isNumericSeed(seed)) return Number(seed) >>> 0;
  let h = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

type Rng = () => number;
type Weighted<T> = ReadonlyArray<readonly [number, T]>;

function pick<T>(rng: Rng, table: Weighted<T>): T {
  let total = 0;
  for (const [w] of table) total += w;
  let x = rng() * total;
  for (const [w, v] of table) if ((x -= w) < 0) return v;
  return table[table.length - 1][1];
}
const int = (rng: Rng, min: number, max: number) => min + Math.floor(rng() * (max - min + 1));
const hex = (rng: Rng) => int(rng, 1, 0xfffe).toString(16);

interface Network { ip: (rng: Rng) => string; language: string; timezone: string }
const v4 = (prefix: string, rest = 1) => (rng: Rng) => `${prefix}.${rest === 2 ? `${int(rng, 0, 255)}.` : ''}${int(rng, 1, 254)}`;

// Reserved test ranges (their country/ISP/flags are fixed) and real public ISP ranges (country from
// the bundled IP database), with a plausible language and timezone for each.
export const NETWORKS: Weighted<Network> = [
  [30, { ip: v4('192.0.2'), language: 'en-US', timezone: 'America/New_York' }],
  [6, { ip: (r) => `2001:db8:${hex(r)}::${hex(r)}`, language: 'fr-FR', timezone: 'Europe/Paris' }],
  [4, { ip: v4('198.51.100'), language: 'en-GB', timezone: 'Europe/London' }],
  [1.5, { ip: v4('203.0.113'), language: 'de-DE', timezone: 'Europe/Berlin' }],
  [2.5, { ip: v4('198.18.0'), language: 'nl-NL', timezone: 'Europe/Amsterdam' }],
  [1, { ip: v4('198.18.1'), language: 'en-US', timezone: 'America/Chicago' }],
  [12, { ip: v4('73.162', 2), language: 'en-US', timezone: 'America/Los_Angeles' }],
  [3, { ip: (r) => `2600:1700:${hex(r)}:${hex(r)}::${hex(r)}`, language: 'en-US', timezone: 'America/Chicago' }],
  [6, { ip: v4('81.2', 2), language: 'en-GB', timezone: 'Europe/London' }],
  [6, { ip: v4('91.64', 2), language: 'de-DE', timezone: 'Europe/Berlin' }],
  [4, { ip: v4('90.0', 2), language: 'fr-FR', timezone: 'Europe/Paris' }],
  [3, { ip: v4('24.48', 2), language: 'en-CA', timezone: 'America/Toronto' }],
  [3, { ip: v4('126.0', 2), language: 'ja-JP', timezone: 'Asia/Tokyo' }],
  [3, { ip: v4('177.10', 2), language: 'pt-BR', timezone: 'America/Sao_Paulo' }],
  [3, { ip: v4('49.36', 2), language: 'en-IN', timezone: 'Asia/Kolkata' }],
  [2, { ip: v4('1.120', 2), language: 'en-AU', timezone: 'Australia/Sydney' }],
  [2, { ip: v4('88.10', 2), language: 'es-ES', timezone: 'Europe/Madrid' }],
  [2, { ip: v4('151.38', 2), language: 'it-IT', timezone: 'Europe/Rome' }],
  [2, { ip: v4('83.84', 2), language: 'nl-NL', timezone: 'Europe/Amsterdam' }],
  [1.5, { ip: v4('187.190', 2), language: 'es-MX', timezone: 'America/Mexico_City' }],
  [1.5, { ip: v4('175.223', 2), language: 'ko-KR', timezone: 'Asia/Seoul' }],
  [1, { ip: v4('41.13', 2), language: 'en-ZA', timezone: 'Africa/Johannesburg' }],
  [0.5, { ip: v4('10.0', 2), language: 'en-US', timezone: 'America/New_York' }], // private: local testing
];

type Kind = 'human' | 'bot' | 'crawler';
const U = TEST_USER_AGENTS;
export const DEVICES: Weighted<{ ua: string; kind: Kind }> = [
  [28, { ua: U.chromeWindows, kind: 'human' }], [5, { ua: U.edgeWindows, kind: 'human' }],
  [4, { ua: U.firefoxWindows, kind: 'human' }], [8, { ua: U.safariMac, kind: 'human' }],
  [5, { ua: U.chromeMac, kind: 'human' }], [1.5, { ua: U.firefoxLinux, kind: 'human' }],
  [18, { ua: U.iphone, kind: 'human' }], [12, { ua: U.chromeAndroid, kind: 'human' }],
  [3, { ua: U.samsungAndroid, kind: 'human' }], [3, { ua: U.ipad, kind: 'human' }],
  [1.5, { ua: U.androidTablet, kind: 'human' }],
  [2, { ua: U.headlessChrome, kind: 'bot' }], [0.7, { ua: U.pythonRequests, kind: 'bot' }],
  [0.5, { ua: U.curl, kind: 'bot' }], [2, { ua: U.googlebot, kind: 'crawler' }], [1, { ua: U.bingbot, kind: 'crawler' }],
];

interface Entry { query: string; referrer: string | null }
const q = (params: Record<string, string>) => `?${new URLSearchParams(params)}`;
const campaigns = ['spring_sale', 'brand', 'retargeting', 'launch_2026', 'black_friday'];
const id = (rng: Rng, prefix: string) => `${prefix}${Math.floor(rng() * 2 ** 32).toString(36)}${Math.floor(rng() * 2 ** 32).toString(36)}`;
const paid = (param: string, source: string, medium: string) => (rng: Rng): Entry => ({
  query: q({ utm_source: source, utm_medium: medium, utm_campaign: campaigns[int(rng, 0, 4)], [param]: id(rng, 'sim') }),
  referrer: null,
});
const ref = (url: string) => (): Entry => ({ query: '', referrer: url });
const utm = (source: string, medium: string) => (rng: Rng): Entry => ({
  query: q({ utm_source: source, utm_medium: medium, utm_campaign: campaigns[int(rng, 0, 4)] }),
  referrer: null,
});

// How humans arrive: direct 28, search 20, social 7, other sites 6, spam referrer 1.5, paid 22, utm 15.5.
export const CHANNELS: Weighted<(rng: Rng) => Entry> = [
  [28, () => ({ query: '', referrer: null })],
  [15, ref('https://www.google.com/')], [3, ref('https://www.bing.com/')], [2, ref('https://duckduckgo.com/')],
  [2, ref('https://www.facebook.com/')], [1.5, ref('https://t.co/x1')], [1.5, ref('https://www.reddit.com/r/widgets/')],
  [1, ref('https://www.linkedin.com/feed/')], [1, ref('https://www.youtube.com/')],
  [3, ref('https://news.example.org/articles/best-widgets')], [2, ref('https://blog.example.net/review')],
  [1, ref('https://partner-shop.example/links')], [1.5, ref('https://spam-referrer.test/free-traffic')],
  [11, paid('gclid', 'google', 'cpc')], [1, paid('gbraid', 'google', 'cpc')], [5, paid('fbclid', 'facebook', 'paid_social')],
  [2, paid('msclkid', 'bing', 'cpc')], [1.5, paid('ttclid', 'tiktok', 'paid_social')], [1.5, paid('li_fat_id', 'linkedin', 'paid_social')],
  [8, utm('newsletter', 'email')], [4, utm('partner', 'affiliate')], [2, utm('instagram', 'social')], [1.5, utm('flyer', 'qr')],
];

const PAGES = ['/', '/pricing', '/products/widget-pro', '/products/widget-mini', '/blog/choosing-a-widget', '/docs/getting-started', '/about', '/signup', '/cart', '/checkout'];
export const SIM_HOST = 'https://shop.example.com';

export interface PlannedView { atS: number; url: string; referrer: string | null; ping?: boolean }
export interface PlannedSession {
  /** Index of the visitor; equal for sessions of a returning visitor. */
  visitor: number;
  userAgent: string;
  ip: string;
  language: string;
  timezone: string;
  /** Seconds from the session's start. */
  views: PlannedView[];
  events: Array<{ name: string; value: number | null; atS: number }>;
}

interface Visitor { index: number; ua: string; kind: Kind; net: Network; ip: string }

/**
 * Yields `count` sessions in chronological order (lazily: a million need not sit in memory), `stepS` seconds apart (the caller spreads them over its
 * window). A returning human visitor reappears at least 2 hours after an earlier session.
 */
export function* planSessions(seed: number, count: number, stepS: number): Generator<PlannedSession> {
  const rng = mulberry32(seed);
  // Human visitors whose latest session is far enough back to return, and those still too recent
  // (a queue in session order, so moving them over is O(1) each).
  const eligible: Visitor[] = [];
  const recent: Array<{ v: Visitor; at: number }> = [];
  const minGap = Math.ceil(7200 / Math.max(stepS, 1e-6));
  let visitors = 0;
  let head = 0;
  for (let i = 0; i < count; i++) {
    while (head < recent.length && recent[head].at <= i - minGap) eligible.push(recent[head++].v);
    let v: Visitor;
    if (rng() < 0.22 && eligible.length > 0) {
      const k = int(rng, 0, eligible.length - 1);
      v = eligible[k];
      eligible[k] = eligible[eligible.length - 1];
      eligible.pop();
    } else {
      const d = pick(rng, DEVICES);
      const net = pick(rng, NETWORKS);
      v = { index: visitors++, ua: d.ua, kind: d.kind, net, ip: net.ip(rng) };
    }
    yield planOne(rng, v);
    if (v.kind === 'human') recent.push({ v, at: i });
  }
}

function planOne(rng: Rng, v: Visitor): PlannedSession {
  const entry = v.kind === 'human' ? pick(rng, CHANNELS)(rng)
    : v.kind === 'bot' && rng() < 0.3 ? ref('https://spam-referrer.test/')() : { query: '', referrer: null };
  const pages = v.kind === 'crawler' ? int(rng, 1, 3)
    : v.kind === 'bot' ? int(rng, 1, 20)
      : pick(rng, [[50, 1], [17, 2], [23, int(rng, 3, 5)], [10, int(rng, 6, 12)]] as const);
  const views: PlannedView[] = [];
  let t = 0;
  let path = PAGES[int(rng, 0, 5)];
  views.push({ atS: 0, url: `${SIM_HOST}${path}${entry.query}`, referrer: entry.referrer });
  for (let p = 1; p < pages; p++) {
    t += v.kind === 'human' ? int(rng, 5, 120) : int(rng, 0, 2);
    const prev = `${SIM_HOST}${path}`;
    path = PAGES[int(rng, 0, PAGES.length - 1)];
    views.push({ atS: t, url: `${SIM_HOST}${path}`, referrer: prev });
  }
  // One-page human visits: most bounce, some stay (the agent's time-on-page ping).
  if (pages === 1 && v.kind === 'human') {
    const stay = pick(rng, [[60, int(rng, 0, 9)], [25, int(rng, 10, 59)], [15, int(rng, 60, 600)]] as const);
    if (stay > 0) views.push({ atS: (t = stay), url: views[0].url, referrer: null, ping: true });
  }
  const events: PlannedSession['events'] = [];
  if (v.kind === 'human') {
    const base = pages === 1 ? 0.005 : pages <= 5 ? 0.05 : 0.12;
    const boost = entry.query.includes('clid') || entry.query.includes('braid') || entry.query.includes('li_fat_id') ? 1.5 : 1;
    if (pages >= 2 && rng() < 0.08) events.push({ name: 'signup_started', value: null, atS: t });
    if (rng() < base * boost) events.push({ name: 'conversion', value: int(rng, 20, 300), atS: t });
  }
  return { visitor: v.index, userAgent: v.ua, ip: v.ip, language: v.net.language, timezone: v.net.timezone, views, events };
}

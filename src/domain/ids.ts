import { randomBytes, timingSafeEqual } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

// CSPRNG bytes drawn 4 KiB at a time: one randomBytes call per id costs more than the rest of a
// page view's id work (as Node's randomUUID does, the pool is never reused).
let pool = Buffer.alloc(0);
let poolPos = 0;
function randomByte(): number {
  if (poolPos >= pool.length) {
    pool = randomBytes(4096);
    poolPos = 0;
  }
  return pool[poolPos++];
}

/** Random base62 string; 22 chars ≈ 131 bits, unguessable. */
export function randomId(length = 22): string {
  let out = '';
  while (out.length < length) {
    const b = randomByte();
    if (b < 248) out += ALPHABET[b % 62]; // reject the tail to keep the distribution uniform
  }
  return out;
}

const TIME_WIDTH = 9; // 62^9 µs ≈ year 2398
// Exact integer arithmetic ends at 2^53 µs (year 2255); later times share one head and are
// unordered among themselves, still unique by their random tail.
const MAX_TIME = Number.MAX_SAFE_INTEGER;

/**
 * A time-ordered id's head: `atUs` in base62, fixed width, so ids made later sort later (the
 * alphabet is in ASCII order). Then randomness. A table keyed by such ids grows its index at the
 * end; with random ids every insert dirties a random index page, which measured 2.3× the cost of
 * a visitor check's write.
 */
export function timeOrderedId(atUs: number, randomLength: number): string {
  return base62(atUs > 0 ? Math.min(Math.floor(atUs), MAX_TIME) : 0, TIME_WIDTH) + randomId(randomLength); // (NaN too)
}

/** A non-negative integer in base62, `width` digits (the lowest ones), zero-padded. */
export function base62(n: number, width: number): string {
  let out = '';
  for (let i = 0; i < width; i++) {
    out = ALPHABET[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

export const newId = {
  site: () => `site_${randomId(16)}`,
  /** Time-ordered: sessions, checks and probes are the tables that grow with traffic. */
  session: (atUs: number) => `ses_${timeOrderedId(atUs, 15)}`,
  check: (atUs: number) => `chk_${timeOrderedId(atUs, 13)}`,
  /** 23 random characters (137 bits) after the time: a probe id is what a check presents. */
  probe: (atUs: number) => `prb_${timeOrderedId(atUs, 23)}`,
  view: () => `view_${randomId(16)}`,
  rule: () => `rule_${randomId(16)}`,
  webhook: () => `wh_${randomId(16)}`,
  webhookEvent: () => `msg_${randomId(24)}`,
  notification: () => `ntf_${randomId(16)}`,
  siteKey: () => `pk_test_${randomId(24)}`,
  secretKey: () => `sk_test_${randomId(32)}`,
  accessToken: () => `at_test_${randomId(32)}`,
  webhookSecret: () => `whsec_${randomBytes(24).toString('base64')}`,
  fingerprint: () => `fp_${randomId(20)}`,
  request: () => `req_${randomId(16)}`,
};

export const PROBE_ID_PATTERN = /^prb_[0-9A-Za-z]{32}$/;

/**
 * What is wrong with a probe id that is not the probe shape, in words: a pasted id often carries an
 * invisible character or a space that makes it look right and fail ("malformed" alone says nothing).
 */
export function probeIdProblem(id: string): string | null {
  if (PROBE_ID_PATTERN.test(id)) return null;
  const chars = [...id];
  const bad = chars.findIndex((ch, i) => !(i < 4 ? ch === 'prb_'[i] : /[0-9A-Za-z]/.test(ch)));
  const ch = chars[bad];
  if (ch !== undefined && (/\p{Cf}|\p{Zl}|\p{Zp}/u.test(ch) || (/\s/.test(ch) && ch !== ' '))) {
    return `an invisible character (U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}) at position ${bad + 1}`;
  }
  if (ch === ' ') return `a space at position ${bad + 1}`;
  if (!id.startsWith('prb_')) return 'does not start with prb_';
  if (ch !== undefined) return `${JSON.stringify(ch)} at position ${bad + 1} (a probe id is prb_ and 32 letters and digits)`;
  return `${chars.length - 4} characters after prb_, not 32`;
}

/** Constant-time string comparison for secrets. */
export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  if (ab.length !== bb.length) {
    timingSafeEqual(ab, ab); // same work either way
    return false;
  }
  return timingSafeEqual(ab, bb);
}

/** Masks a secret for logs: keeps its prefix and last 4 characters. */
export function maskSecret(secret: string): string {
  const m = /^([a-z]+_(?:test_)?)/.exec(secret);
  const prefix = m ? m[1] : '';
  return `${prefix}…${secret.slice(-4)}`;
}

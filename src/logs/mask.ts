// Masks secrets in logged text (request/response bodies, paths) without parsing it: bodies may be
// invalid JSON, and the request log must stay cheap.
import { maskSecret } from '../domain/ids.js';

// "secret_key": "<anything>", whatever the value looks like (a wrong key is still someone's secret).
// The name may be written with JSON escapes (`"secret\u005fkey"`): a JSON parser reads it as
// `secret_key`, so the server takes it as the credential. Each character of the name is itself or
// its \uXXXX escape, either case (a `SECRET_KEY` is masked too; secretKeyOf wants the exact name).
const KEY_NAME = 'secret_key'
  .split('')
  .map((ch) => {
    const codes = [...new Set([ch.toLowerCase(), ch.toUpperCase()])].map((c) => c.charCodeAt(0).toString(16).padStart(4, '0'));
    return `(?:${ch}|\\\\u(?:${codes.join('|')}))`;
  })
  .join('');
const SECRET_FIELD = new RegExp(`("(${KEY_NAME})"\\s*:\\s*")((?:[^"\\\\]|\\\\.)*)"`, 'gi');
// Anything shaped like one of our secrets, wherever it appears.
const SECRET_SHAPED = /\b(?:sk_test_|at_test_|whsec_)[A-Za-z0-9+/=_-]{4,}/g;
const BEARER = /(Bearer\s+)([^\s"',]+)/gi;
// Credentials in a query string (`?admin_token=`, `&secret_key=`, ...), whatever their shape: a
// user-chosen admin token or a mistyped key looks like nothing in particular.
const QUERY_SECRET = /([?&](?:admin_token|access_token|token|secret_key|secret|api_key|key|password)=)([^&#\s"']*)/gi;

// maskSecret keeps the last 4 characters; a short value would be given away whole.
const mask = (v: string) => (v.length > 12 ? maskSecret(v) : '…');

// Words that may start something to mask (lower case). Most bodies contain none of them. `\u00`: an
// escaped character, which may spell `secret_key` without the word appearing (`"\u0073ecret_key"`).
const MARKERS = ['secret', '\\u00', 'sk_test_', 'at_test_', 'whsec_', 'bearer', 'token=', 'key=', 'password='];

export function maskText(text: string): string {
  if (!text) return text;
  // Fast path (every logged request): plain substring searches beat one case-insensitive regex.
  const lower = text.toLowerCase();
  if (!MARKERS.some((m) => lower.includes(m))) return text;
  return text
    .replace(QUERY_SECRET, (_m, head: string, value: string) => `${head}${value ? mask(value) : ''}`)
    .replace(SECRET_FIELD, (_m, head: string, _name: string, value: string) => `${head}${value ? mask(value) : ''}"`)
    .replace(SECRET_SHAPED, (m) => maskSecret(m))
    .replace(BEARER, (_m, head: string, token: string) => `${head}${mask(token)}`);
}

/** A JSON string's content (between the quotes) decoded, or null when it is not valid JSON. */
function decodeJsonString(raw: string): string | null {
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return null;
  }
}

/**
 * The unmasked `secret_key` of a request body, to attribute the request to its site: the field
 * maskText masks whose name decodes to exactly `secret_key` (what the server reads), the last one
 * when there are several (as JSON.parse keeps the last of duplicate names).
 */
export function secretKeyOf(text: string | null): string | null {
  if (!text || (!text.includes('secret_key') && !text.includes('\\u00'))) return null;
  let key: string | null = null;
  for (const m of text.matchAll(SECRET_FIELD)) {
    if (decodeJsonString(m[2]) !== 'secret_key') continue;
    const value = decodeJsonString(m[3]);
    if (value !== null) key = value;
  }
  return key;
}

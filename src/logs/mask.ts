// Masks secrets in logged text (request/response bodies, paths) without parsing it: bodies may be
// invalid JSON, and the request log must stay cheap.
import { maskSecret } from '../domain/ids.js';

// "secret_key": "<anything>", whatever the value looks like (a wrong key is still someone's secret).
const SECRET_FIELD = /("secret_key"\s*:\s*")((?:[^"\\]|\\.)*)"/g;
// Anything shaped like one of our secrets, wherever it appears.
const SECRET_SHAPED = /\b(?:sk_test_|at_test_|whsec_)[A-Za-z0-9+/=_-]{4,}/g;
const BEARER = /(Bearer\s+)([^\s"',]+)/gi;
// Credentials in a query string (`?admin_token=`, `&secret_key=`, ...), whatever their shape: a
// user-chosen admin token or a mistyped key looks like nothing in particular.
const QUERY_SECRET = /([?&](?:admin_token|access_token|token|secret_key|secret|api_key|key|password)=)([^&#\s"']*)/gi;

// maskSecret keeps the last 4 characters; a short value would be given away whole.
const mask = (v: string) => (v.length > 12 ? maskSecret(v) : '…');

// Words that may start something to mask (lower case). Most bodies contain none of them.
const MARKERS = ['secret', 'sk_test_', 'at_test_', 'whsec_', 'bearer', 'token=', 'key=', 'password='];

export function maskText(text: string): string {
  if (!text) return text;
  // Fast path (every logged request): plain substring searches beat one case-insensitive regex.
  const lower = text.toLowerCase();
  if (!MARKERS.some((m) => lower.includes(m))) return text;
  return text
    .replace(QUERY_SECRET, (_m, head: string, value: string) => `${head}${value ? mask(value) : ''}`)
    .replace(SECRET_FIELD, (_m, head: string, value: string) => `${head}${value ? mask(value) : ''}"`)
    .replace(SECRET_SHAPED, (m) => maskSecret(m))
    .replace(BEARER, (_m, head: string, token: string) => `${head}${mask(token)}`);
}

/** The unmasked `secret_key` of a request body, to attribute the request to its site. */
export function secretKeyOf(text: string | null): string | null {
  if (!text || !text.includes('secret_key')) return null;
  SECRET_FIELD.lastIndex = 0;
  const m = SECRET_FIELD.exec(text);
  SECRET_FIELD.lastIndex = 0;
  if (!m) return null;
  try {
    return JSON.parse(`"${m[2]}"`) as string;
  } catch {
    return null;
  }
}

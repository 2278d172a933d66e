// Masks secrets in logged text (request/response bodies, paths) without parsing it: bodies may be
// invalid JSON, and the request log must stay cheap.
import { maskSecret } from '../domain/ids.js';

// "secret_key": "<anything>", whatever the value looks like (a wrong key is still someone's secret).
const SECRET_FIELD = /("secret_key"\s*:\s*")((?:[^"\\]|\\.)*)"/g;
// Anything shaped like one of our secrets, wherever it appears.
const SECRET_SHAPED = /\b(?:sk_test_|at_test_|whsec_)[A-Za-z0-9+/=_-]{4,}/g;
const BEARER = /(Bearer\s+)([^\s"',]+)/gi;

// maskSecret keeps the last 4 characters; a short value would be given away whole.
const mask = (v: string) => (v.length > 12 ? maskSecret(v) : '…');

export function maskText(text: string): string {
  if (!text) return text;
  // Fast path: most bodies mention none of these.
  if (!/secret_key|sk_test_|at_test_|whsec_|bearer/i.test(text)) return text;
  return text
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

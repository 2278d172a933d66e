// The receiver's signature verdict: standardwebhooks' verify, and when only its 5-minute timestamp
// tolerance fails (a manual clock far from real time), our own HMAC check of the same bytes.
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface Verdict {
  signature: 'valid' | 'invalid';
  /** Why it is invalid. */
  error: string | null;
  /** Valid, but standardwebhooks would refuse it (timestamp outside its tolerance). */
  warning: string | null;
}

export interface Verifier {
  verify(body: string, headers: Record<string, string>): Verdict;
}

export async function createVerifier(secret: string): Promise<Verifier> {
  const { Webhook } = await import('standardwebhooks');
  const wh = new Webhook(secret); // throws on a malformed secret
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const hmacMatches = (body: string, h: Record<string, string>) => {
    const expected = createHmac('sha256', key).update(`${h['webhook-id']}.${h['webhook-timestamp']}.${body}`).digest();
    return (h['webhook-signature'] ?? '').split(' ').some((part) => {
      const [version, sig] = part.split(',');
      const given = Buffer.from(sig ?? '', 'base64');
      return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
    });
  };
  return {
    verify(body, headers) {
      try {
        wh.verify(body, headers);
        return { signature: 'valid', error: null, warning: null };
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        const timestamp = /timestamp too (old|new)/i.test(message);
        // The library checks the timestamp first: a wrong secret must still read as a wrong signature.
        if (timestamp && !hmacMatches(body, headers)) return { signature: 'invalid', error: 'No matching signature found', warning: null };
        if (timestamp) {
          const skew = Math.round(Number(headers['webhook-timestamp']) - Date.now() / 1000);
          return {
            signature: 'valid',
            error: null,
            warning: `webhook-timestamp is ${skew}s from real time; standardwebhooks refuses more than 300s (is the emulator on --clock manual?)`,
          };
        }
        return { signature: 'invalid', error: message, warning: null };
      }
    },
  };
}

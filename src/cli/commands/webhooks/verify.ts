// The receiver's signature verdict: standardwebhooks' verify with its default tolerance (±5 min
// against this machine's clock), as a real receiver would run it. The emulator signs with real time
// in every clock mode, so only a delayed, replayed or forged delivery fails on the timestamp. When
// verification fails the verdict says why, in words a receiver's author can act on.
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface Verdict {
  signature: 'valid' | 'invalid';
  /** Why it is invalid. */
  error: string | null;
  /** Kept for the --json shape; always null since signatures use real time. */
  warning: string | null;
}

export interface Verifier {
  verify(body: string, headers: Record<string, string>): Verdict;
}

const REQUIRED = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;
const TOLERANCE_S = 300; // standardwebhooks' default

export async function createVerifier(secret: string, realNow: () => number = Date.now): Promise<Verifier> {
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
  const invalid = (error: string): Verdict => ({ signature: 'invalid', error, warning: null });
  return {
    verify(body, headers) {
      const missing = REQUIRED.filter((h) => !headers[h]);
      if (missing.length) return invalid(`missing header${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`);
      try {
        wh.verify(body, headers);
        return { signature: 'valid', error: null, warning: null };
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        const ts = Number(headers['webhook-timestamp']);
        if (/timestamp too (old|new)/i.test(message) && Number.isFinite(ts)) {
          const skew = Math.round(ts - realNow() / 1000);
          const which = skew < 0 ? `too old: ${-skew}s before` : `too new: ${skew}s after`;
          // The library checks the timestamp before the signature: say whether the signature matched too.
          const sig = hmacMatches(body, headers) ? 'the signature itself matches' : 'and no signature matches this secret either';
          return invalid(`webhook-timestamp ${which} this machine's clock (standardwebhooks accepts ±${TOLERANCE_S}s); ${sig}`);
        }
        if (/invalid signature headers|timestamp/i.test(message)) return invalid(`webhook-timestamp: "${headers['webhook-timestamp']}" is not a Unix time in seconds`);
        if (/no matching signature/i.test(message)) return invalid('bad signature: no v1 signature matches this secret (another webhook\'s secret, or a changed body)');
        return invalid(message);
      }
    },
  };
}

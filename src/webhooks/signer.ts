// Standard Webhooks signing: `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`, keyed with the
// base64-decoded part of the `whsec_` secret (https://www.standardwebhooks.com/).
import { createHmac } from 'node:crypto';
import { VERSION } from '../version.js';

const PREFIX = 'whsec_';

export function signingKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
}

export function sign(secret: string, msgId: string, timestampSec: number, body: string): string {
  const mac = createHmac('sha256', signingKey(secret)).update(`${msgId}.${timestampSec}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** Every header of a delivery. */
export function deliveryHeaders(secret: string, msgId: string, timestampSec: number, body: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': `vtr/${VERSION}`,
    'webhook-id': msgId,
    'webhook-timestamp': String(timestampSec),
    'webhook-signature': sign(secret, msgId, timestampSec, body),
  };
}

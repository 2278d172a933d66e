// `vtr serve --rate-limit N`: at most N public-API requests per second per client address,
// answered 429 `rate_limited` with Retry-After beyond that (a fixed one-second window). Windows
// are real seconds, whatever the emulator's clock: under a frozen clock a client that waits as
// Retry-After says must be let in again.
import type { Context, MiddlewareHandler } from 'hono';
import type { Clock } from '../domain/clock.js';
import { VtrError } from '../domain/errors.js';
import { peerAddress } from './client-ip.js';

// The socket's address (X-Forwarded-For is the visitor's, not the caller's); in-process is loopback.
const clientAddress = (c: Context): string => peerAddress(c) ?? 'unknown';

export function rateLimit(perSecond: number, clock: Clock): MiddlewareHandler {
  let windowStart = 0;
  let counts = new Map<string, number>();
  return async (c, next) => {
    const now = clock.realNow();
    if (now - windowStart >= 1000) {
      windowStart = now;
      counts = new Map();
    }
    const key = clientAddress(c);
    const n = (counts.get(key) ?? 0) + 1;
    counts.set(key, n);
    if (n > perSecond) {
      const wait = Math.max(1, Math.ceil((windowStart + 1000 - now) / 1000));
      c.header('Retry-After', String(wait));
      throw new VtrError('rate_limited', `more than ${perSecond} requests per second; retry after ${wait}s`);
    }
    await next();
  };
}

// Changes to a local emulator come from its own console or from non-browser clients (the CLI, your
// tests), never from another web page: a browser tells where a request comes from (Sec-Fetch-Site,
// Origin), and a cross-site one is refused (CSRF against a server on 127.0.0.1). Clients that are
// not browsers send neither header and pass.
import { CLI_OPTION_NAMES } from '../../domain/option-names.js';
import type { Context, MiddlewareHandler } from 'hono';
import { VtrError } from '../../domain/errors.js';
import { isLoopbackName } from '../../domain/ip-intel.js';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Throws 403 `forbidden` when a browser says the request comes from another site or origin. */
export function assertSameOrigin(c: Context, message: string): void {
  const fetchSite = c.req.header('sec-fetch-site');
  if (fetchSite && fetchSite !== 'same-origin' && fetchSite !== 'none') throw new VtrError('forbidden', message);
  const origin = c.req.header('origin');
  if (origin === undefined) return;
  let host: string | null = null;
  try {
    host = origin === 'null' ? null : new URL(origin).host;
  } catch {
    host = null;
  }
  if (host === null || host !== c.req.header('host')) throw new VtrError('forbidden', message);
}

/** For the management API: every method that changes something. */
export function sameOriginWrites(): MiddlewareHandler {
  return async (c, next) => {
    if (!SAFE.has(c.req.method)) {
      assertSameOrigin(c, `${c.req.method} ${c.req.path.slice(0, 200)}: the management API takes changes from the console, the CLI or your own code, not from another web page (Origin ${c.req.header('origin') ?? c.req.header('sec-fetch-site')})`);
    }
    await next();
  };
}

/** `localhost`, `*.localhost` (RFC 6761) or a loopback IP literal, with or without a port. */
export function isLoopbackHost(host: string): boolean {
  let name: string;
  try {
    name = new URL(`http://${host}`).hostname.toLowerCase();
  } catch {
    return false;
  }
  return isLoopbackName(name);
}

/**
 * Without an admin token the emulator is loopback-only, and so are the names it answers to: a page
 * whose own domain was re-pointed at 127.0.0.1 (DNS rebinding) is same-origin with itself and would
 * otherwise read the keys and change state. In-process requests (no Host) pass.
 */
export function loopbackHostOnly(adminTokenName = CLI_OPTION_NAMES.adminToken): MiddlewareHandler {
  return async (c, next) => {
    const host = c.req.header('host');
    if (host !== undefined && !isLoopbackHost(host)) {
      throw new VtrError('forbidden', `Host ${JSON.stringify(host.slice(0, 100))}: without ${adminTokenName} this emulator answers only to localhost and loopback addresses (127.0.0.1, [::1])`);
    }
    await next();
  };
}

// The visitor's IP as the emulator sees it: the socket's address; X-Forwarded-For only when the
// request comes from loopback (a local dev proxy) or from in-process (`app.request`, no socket).
import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import { isIpAddress, isLoopbackIp } from '../domain/ip-intel.js';

export function clientIp(c: Context): string | null {
  let remote: string | undefined;
  try {
    remote = getConnInfo(c).remote.address;
  } catch {
    remote = undefined; // no Node socket: an in-process request
  }
  // A first hop that is not an address (a typo, a test's garbage) is ignored, not stored as the IP.
  const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim().slice(0, 100);
  if (forwarded && isIpAddress(forwarded) && (remote === undefined || isLoopbackIp(remote))) return unmapped(forwarded);
  if (!remote) return null;
  return unmapped(remote);
}

const unmapped = (ip: string) => ip.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');

// The visitor's IP as the emulator sees it: the socket's address; X-Forwarded-For only when the
// request comes from loopback (a local dev proxy), in-process requests included.
import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import { isIpAddress, isLoopbackIp } from '../domain/ip-intel.js';

/** What an in-process request (`emu.fetch`, `vtr/msw`, `app.request`: no socket) comes from: this machine. */
export const IN_PROCESS_ADDRESS = '127.0.0.1';

/** The address of the peer that sent the request: the socket's, or loopback for an in-process request. */
export function peerAddress(c: Context): string | null {
  let remote: string | undefined;
  try {
    remote = getConnInfo(c).remote.address;
  } catch {
    return IN_PROCESS_ADDRESS; // no Node socket
  }
  return remote ? unmapped(remote) : null;
}

export function clientIp(c: Context): string | null {
  const peer = peerAddress(c);
  // A first hop that is not an address (a typo, a test's garbage) is ignored, not stored as the IP.
  const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim().slice(0, 100);
  if (forwarded && isIpAddress(forwarded) && peer && isLoopbackIp(peer)) return unmapped(forwarded);
  return peer;
}

const unmapped = (ip: string) => ip.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');

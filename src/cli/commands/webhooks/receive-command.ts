// The `vtr webhooks receive` that would listen at a local webhook URL: its port, and its address
// when that is not the receiver's default 127.0.0.1.
import { isLocal, otherLoopback } from '../../credentials.js';

/** `vtr webhooks receive --port P [--host H]` for a URL on this machine, else null. */
export function receiveCommandFor(url: string): string | null {
  if (!isLocal(url)) return null;
  const u = new URL(url);
  const port = u.port || (u.protocol === 'https:' ? '443' : '80');
  const host = otherLoopback(url);
  return `vtr webhooks receive --port ${port}${host ? ` --host ${host}` : ''}`;
}

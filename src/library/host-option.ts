// startEmulator's `host` written as a URL or with its port (as VTR_BASE_URL or a .env holds it):
// else it is taken for another machine's name, refused as not loopback, or looked up in vain.
import { bindAddress } from '../domain/ip-intel.js';

/** What to say about such a host, naming the options to pass instead; null for an address or a name. */
export function hostWithPortProblem(host: string): string | null {
  const name = host.trim();
  const pass = (address: string, port: string) => `{ host: '${address}'${port ? `, port: ${Number(port)}` : ''} }`;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(name)) {
    let url: URL | null = null;
    try {
      url = new URL(name);
    } catch {
      // named as a URL all the same
    }
    const address = url?.hostname ? bindAddress(url.hostname) : '127.0.0.1';
    return `give an address or name, not a URL, e.g. ${pass(address, url?.port ?? '')}`;
  }
  // A bare IPv6 address (::1) has colons too: only one in brackets, or a name or IPv4 address, has a port.
  const m = /^\[([^\]]+)\]:(\d+)$/.exec(name) ?? /^([^:[\]]+):(\d+)$/.exec(name);
  return m ? `give the address alone and the port as port, e.g. ${pass(m[1], m[2])}` : null;
}

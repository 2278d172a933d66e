// A listening host written as a URL or with its port (as VTR_BASE_URL or a .env holds it): else it
// is taken for another machine's name, refused as not loopback, or looked up in vain. The CLI and
// the library each word what to pass instead.
import { bindAddress } from './ip-intel.js';

/** The address and port such a host names (`url`: it was written as a URL); null for an address or a name. */
export function hostWithPort(host: string): { url: boolean; address: string; port: string } | null {
  const name = host.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(name)) {
    let url: URL | null = null;
    try {
      url = new URL(name);
    } catch {
      // named as a URL all the same
    }
    return { url: true, address: url?.hostname ? bindAddress(url.hostname) : '127.0.0.1', port: url?.port ?? '' };
  }
  // A bare IPv6 address (::1) has colons too: only one in brackets, or a name or IPv4 address, has a port.
  const m = /^\[([^\]]+)\]:(\d+)$/.exec(name) ?? /^([^:[\]]+):(\d+)$/.exec(name);
  return m ? { url: false, address: m[1], port: m[2] } : null;
}

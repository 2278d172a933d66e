// startEmulator's `host` written as a URL or with its port, said with the options to pass instead.
import { hostWithPort } from '../domain/host-with-port.js';

/** What to say about such a host, naming the options to pass instead; null for an address or a name. */
export function hostWithPortProblem(host: string): string | null {
  const h = hostWithPort(host);
  if (!h) return null;
  const pass = `{ host: '${h.address}'${h.port ? `, port: ${Number(h.port)}` : ''} }`;
  return h.url ? `give an address or name, not a URL, e.g. ${pass}` : `give the address alone and the port as port, e.g. ${pass}`;
}

import ipaddr from 'ipaddr.js';

/** True when `ip` equals an entry or falls in an entry's CIDR range. Bad entries never match. */
export function ipAllowed(ip: string | null, allowlist: string[]): boolean {
  if (!ip || allowlist.length === 0) return false;
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = ipaddr.process(ip);
  } catch {
    return false;
  }
  for (const entry of allowlist) {
    try {
      if (entry.includes('/')) {
        const [range, bits] = ipaddr.parseCIDR(entry);
        if (range.kind() === addr.kind() && addr.match(range, bits)) return true;
      } else if (ipaddr.process(entry).toString() === addr.toString()) return true;
    } catch {
      // an unparsable entry matches nothing
    }
  }
  return false;
}

export function isValidAllowlistEntry(entry: string): boolean {
  try {
    if (entry.includes('/')) ipaddr.parseCIDR(entry);
    else ipaddr.parse(entry);
    return true;
  } catch {
    return false;
  }
}

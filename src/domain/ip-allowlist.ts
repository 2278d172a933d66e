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
  // Only the usual forms: ipaddr.js also reads inet_aton shorthands ("1.2.3" is 1.2.0.3, "010.1.1.1"
  // is 8.1.1.1), which would silently allow an address the user never meant.
  const slash = entry.indexOf('/');
  const address = slash === -1 ? entry : entry.slice(0, slash);
  if (!ipaddr.IPv4.isValidFourPartDecimal(address) && !ipaddr.IPv6.isValid(address)) return false;
  try {
    if (slash !== -1) ipaddr.parseCIDR(entry);
    return true;
  } catch {
    return false;
  }
}

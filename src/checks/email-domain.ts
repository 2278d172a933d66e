// The domain of an email address as mail systems and browsers read it. IDNA (UTS #46) maps
// full-width letters and dots, compatibility forms and case, so "ｅｘａｍｐｌｅ．ｃｏｍ" is example.com,
// and a punycode label ("xn--bcher-kva") is the same name as its Unicode spelling ("bücher").
import { isIP } from 'node:net';
import { domainToASCII, domainToUnicode } from 'node:url';

export interface EmailDomain {
  /** Lower case, with Unicode labels for an internationalised domain; a trailing dot is kept. */
  name: string;
  /** The same domain as DNS spells it (punycode labels); null when IDNA cannot map it. */
  ascii: string | null;
}

// Plain ASCII without punycode labels maps to itself in lower case: no IDNA work needed.
const NEEDS_MAPPING = /[^\x00-\x7f]|(^|\.)xn--/i;

export function readEmailDomain(text: string): EmailDomain {
  const lower = text.toLowerCase();
  if (!NEEDS_MAPPING.test(text)) return { name: lower, ascii: lower };
  const ascii = domainToASCII(text);
  // Not a name IDNA accepts (bad punycode, spaces, ...), or a host that reads as an IPv4 address.
  if (ascii === '' || isIP(ascii.replace(/\.$/, '')) !== 0) return { name: lower, ascii: null };
  return { name: domainToUnicode(ascii), ascii };
}

// Text a visitor typed or pasted into a form, as the checks read it. Copying from contacts, chat
// apps and web pages brings invisible formatting characters along (bidi marks and isolates around
// an address, a zero-width space, a soft hyphen, a byte order mark): they are dropped, and the ends
// trimmed. Zero-width (non-)joiners stay, as in some scripts they are part of the spelling.
const INVISIBLE = /(?![\u200c\u200d])\p{Cf}/gu;

export function visibleText(s: string): string {
  return s.replace(INVISIBLE, '').trim();
}

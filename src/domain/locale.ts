// A visitor's language tag and time zone, as the service describes them: an IETF language tag and a
// tz database name, each in its canonical spelling, or nothing. Browsers send what they like; the
// built-in Intl data decides what is valid (Intl throws a RangeError for what it does not know).
import { addBounded } from './bounded-map.js';

const MAX_REMEMBERED = 500;

/** `canonicalOf(text)` remembered per input (Intl objects are slow to build), null when Intl refuses it. */
function canonicalizer(maxLength: number, canonicalOf: (text: string) => string | undefined) {
  const known = new Map<string, string | null>();
  return (text: string | null | undefined): string | null => {
    if (text == null) return null;
    const key = text.trim();
    if (key === '' || key.length > maxLength) return null;
    const hit = known.get(key);
    if (hit !== undefined) return hit;
    let value: string | null;
    try {
      value = canonicalOf(key) ?? null;
    } catch {
      value = null;
    }
    addBounded(known, key, value, MAX_REMEMBERED);
    return value;
  };
}

/** `en-us` → `en-US`; null when not a well-formed language tag. */
export const canonicalLanguage = canonicalizer(50, (tag) => Intl.getCanonicalLocales(tag)[0]);

/** `europe/london` → `Europe/London`; null when not a tz database name. */
export const canonicalTimezone = canonicalizer(100, (zone) => new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone);

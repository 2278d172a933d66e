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

/**
 * Zones the tz database renamed whose old name Intl (ICU) still gives as canonical: `Asia/Kolkata`
 * would come back `Asia/Calcutta`, and a filter on the name that was sent would miss it.
 */
export const CURRENT_ZONE_NAMES: Readonly<Record<string, string>> = {
  'Africa/Asmera': 'Africa/Asmara',
  'America/Buenos_Aires': 'America/Argentina/Buenos_Aires',
  'America/Catamarca': 'America/Argentina/Catamarca',
  'America/Cordoba': 'America/Argentina/Cordoba',
  'America/Jujuy': 'America/Argentina/Jujuy',
  'America/Mendoza': 'America/Argentina/Mendoza',
  'America/Coral_Harbour': 'America/Atikokan',
  'America/Indianapolis': 'America/Indiana/Indianapolis',
  'America/Louisville': 'America/Kentucky/Louisville',
  'America/Godthab': 'America/Nuuk',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Calcutta': 'Asia/Kolkata',
  'Asia/Rangoon': 'Asia/Yangon',
  'Atlantic/Faeroe': 'Atlantic/Faroe',
  'Europe/Kiev': 'Europe/Kyiv',
  'Pacific/Truk': 'Pacific/Chuuk',
  'Pacific/Enderbury': 'Pacific/Kanton',
  'Pacific/Ponape': 'Pacific/Pohnpei',
};

/**
 * `europe/london` → `Europe/London`, `Asia/Calcutta` → `Asia/Kolkata`; null when not a tz database
 * name. UTC stays `UTC`, as browsers report it.
 */
export const canonicalTimezone = canonicalizer(100, (zone) => {
  const name = new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  return CURRENT_ZONE_NAMES[name] ?? name;
});

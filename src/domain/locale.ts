// A visitor's language tag and time zone, as the service describes them: an IETF language tag and a
// tz database name, each in its canonical spelling, or nothing. Browsers send what they like; the
// built-in Intl data decides what is valid.

const MAX_REMEMBERED = 500;
const languages = new Map<string, string | null>();
const zones = new Map<string, string | null>();

function remember(map: Map<string, string | null>, key: string, value: string | null): string | null {
  if (map.size >= MAX_REMEMBERED) map.delete(map.keys().next().value!);
  map.set(key, value);
  return value;
}

/** `en-us` → `en-US`; null when `tag` is not a well-formed language tag. */
export function canonicalLanguage(tag: string | null | undefined): string | null {
  if (tag == null) return null;
  const key = tag.trim();
  if (key === '' || key.length > 50) return null;
  const known = languages.get(key);
  if (known !== undefined) return known;
  let value: string | null;
  try {
    value = Intl.getCanonicalLocales(key)[0] ?? null;
  } catch {
    value = null;
  }
  return remember(languages, key, value);
}

/** `europe/london` → `Europe/London`; null when `zone` is not a tz database name. */
export function canonicalTimezone(zone: string | null | undefined): string | null {
  if (zone == null) return null;
  const key = zone.trim();
  if (key === '' || key.length > 100) return null;
  const known = zones.get(key);
  if (known !== undefined) return known;
  let value: string | null;
  try {
    value = new Intl.DateTimeFormat('en-US', { timeZone: key }).resolvedOptions().timeZone;
  } catch {
    value = null;
  }
  return remember(zones, key, value);
}

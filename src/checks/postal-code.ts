// A postal code read against its country's format, in the forms people actually type it.
import { lazy } from '../domain/lazy.js';

const postcodes = lazy<typeof import('postcode-validator')>('postcode-validator');

// Country prefixes written before a European postal code ("D-10115", "CH 8001"): the country's
// ISO code, or its international vehicle sign where that differs (the older, still common, form).
const VEHICLE_SIGNS: Record<string, string[]> = {
  AT: ['A'], BE: ['B'], DE: ['D'], ES: ['E'], FI: ['FIN'], FR: ['F'], GB: ['UK'], HU: ['H'], IE: ['IRL'],
  IT: ['I'], LI: ['FL'], LU: ['L'], MT: ['M'], NO: ['N'], PT: ['P'], SE: ['S'], SI: ['SLO'], EE: ['EST'],
  RS: ['SRB'], SM: ['RSM'], VA: ['V'], AD: ['AND'], MC: ['MC'],
};

export interface PostalCode {
  postal: string;
  /** null when the country has no postal code rule. */
  valid: boolean | null;
}

function matches(postal: string, country: string): boolean {
  const v = postcodes();
  if (v.postcodeValidator(postal, country)) return true;
  // Digits typed without the separator their country's format has (JP 1000001, PL 00950,
  // US 941051234): valid when a hyphen at some place makes the format.
  if (!/^\d{4,10}$/.test(postal)) return false;
  for (let i = 1; i < postal.length; i++) {
    if (v.postcodeValidator(`${postal.slice(0, i)}-${postal.slice(i)}`, country)) return true;
  }
  return false;
}

/** The code as given when it is valid, else the first everyday variant of it that is. */
function readAs(postal: string, country: string): string | null {
  if (matches(postal, country)) return postal;
  // A hyphen where the format has a space (CA "M5V-2T6", GB "SW1A-1AA").
  const spaced = postal.replace(/-/g, ' ');
  if (spaced !== postal && matches(spaced, country)) return spaced;
  return null;
}

/** `postal` is upper-cased, NFKC-normalised text; `country` an ISO alpha-2 code. */
export function readPostalCode(postal: string, country: string): PostalCode {
  if (!postcodes().postcodeValidatorExistsForCountry(country)) return { postal, valid: null };
  try {
    const asGiven = readAs(postal, country);
    if (asGiven !== null) return { postal: asGiven, valid: true };
    // A prefix naming the address's own country ("D-10115", or "D 10115" with a space) is dropped;
    // another country's keeps it invalid.
    const m = /^([A-Z]{1,3})(?:\s*-\s*|\s+)(.+)$/.exec(postal);
    if (m && (m[1] === country || VEHICLE_SIGNS[country]?.includes(m[1]))) {
      const rest = readAs(m[2], country);
      if (rest !== null) return { postal: rest, valid: true };
    }
    return { postal, valid: false };
  } catch {
    return { postal, valid: null };
  }
}

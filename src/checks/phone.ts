// Phone check: any format, coerced to E.164 with full libphonenumber metadata (needed for `type`).
// A national number (no `+`/international prefix) is read in the site's country.
import type { CountryCode, PhoneNumber } from 'libphonenumber-js/max';
import { lazy } from '../domain/lazy.js';

// Full metadata (~150 KB): loaded by the first phone check.
const phoneLib = lazy<typeof import('libphonenumber-js/max')>('libphonenumber-js/max');
import { countryName } from '../domain/ip-intel.js';

export interface PhoneCheck {
  success: boolean;
  valid: boolean;
  /** E.164 whenever the input reads as a possible number (right length), even one that is not valid. */
  phone: string | null;
  phone_international: string | null;
  phone_national: string | null;
  country_code: string | null;
  country_name: string | null;
  /** lower snake case of libphonenumber's type: mobile, fixed_line, fixed_line_or_mobile, toll_free, ... */
  type: string | null;
  carrier: null;
  in_country: boolean | null;
}

const MAX_INPUT = 100; // longer than any formatted phone number with extension

function empty(success: boolean): PhoneCheck {
  return { success, valid: false, phone: null, phone_international: null, phone_national: null,
    country_code: null, country_name: null, type: null, carrier: null, in_country: null };
}

export function checkPhone(input: string, siteCountry: string | null): PhoneCheck {
  const raw = typeof input === 'string' ? input.trim() : '';
  if (raw.length === 0 || raw.length > MAX_INPUT) return empty(true);
  const site = typeof siteCountry === 'string' ? siteCountry.toUpperCase() : null;
  const read = parsePhone(raw, site);
  // "0044 20 7946 0018": most of the world dials out with 00, so people write international numbers
  // that way on any form. Where the site's country dials out otherwise (US/CA 011, JP 010, AU 0011),
  // a number that does not read as a national one is tried as +44...; a valid reading is kept.
  if (read.valid) return read;
  const idd = /^\(?00\)?\s*(?=\d)/.exec(raw.normalize('NFKC'));
  if (!idd) return read;
  const international = parsePhone(`+${raw.normalize('NFKC').slice(idd[0].length)}`, site);
  return international.valid ? international : read;
}

function parsePhone(raw: string, site: string | null): PhoneCheck {
  const defaultCountry = site && phoneLib().isSupportedCountry(site) ? (site as CountryCode) : undefined;

  let parsed: PhoneNumber;
  try {
    parsed = phoneLib().parsePhoneNumberWithError(raw, defaultCountry ? { defaultCountry } : undefined);
  } catch (err) {
    // A national number with no site country cannot be read at all: "could not be checked".
    const noCountry = err instanceof Error && err.message === 'INVALID_COUNTRY' && !raw.startsWith('+');
    return empty(!(noCountry && !defaultCountry));
  }

  try {
    // Wrong length for its country: nothing worth reporting as a number.
    if (!parsed.isPossible()) return empty(true);
    // With full metadata isValid() is getType() !== undefined, the costliest step (every type's
    // pattern is tried): ask once. isValid() still answers where a country has no type data.
    const type = parsed.getType();
    const valid = type !== undefined || parsed.isValid();
    // An invalid number's country is only the site's, assumed to read a national number: not a fact.
    const country = valid ? (parsed.country ?? null) : null;
    return {
      success: true,
      valid,
      phone: parsed.number,
      phone_international: parsed.formatInternational(),
      phone_national: parsed.formatNational(),
      country_code: country,
      country_name: countryName(country),
      type: type ? type.toLowerCase() : null,
      carrier: null, // no carrier data in the emulator
      in_country: country && site ? country === site : null,
    };
  } catch {
    return empty(true);
  }
}

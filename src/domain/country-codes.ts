// ISO 3166-1 alpha-2 codes, from i18n-iso-countries (domain/country-names.ts): a site's country and the
// countries it excludes must be real ones, or phone numbers and the location rule read nothing.
import { countries } from './country-names.js';

/** Whether `code` is an ISO 3166-1 alpha-2 code (either case). */
export function isCountryCode(code: string): boolean {
  return /^[A-Za-z]{2}$/.test(code) && countries().isValid(code.toUpperCase());
}

// ISO 3166-1 alpha-2 codes, from i18n-iso-countries (loaded on first use): a site's country and the
// countries it excludes must be real ones, or phone numbers and the location rule read nothing.
import { lazy } from './lazy.js';

const countries = lazy<typeof import('i18n-iso-countries')>('i18n-iso-countries');

/** Whether `code` is an ISO 3166-1 alpha-2 code (either case). */
export function isCountryCode(code: string): boolean {
  return /^[A-Za-z]{2}$/.test(code) && countries().isValid(code.toUpperCase());
}

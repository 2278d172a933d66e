// Country codes and their English names (i18n-iso-countries), loaded on first use. The package's
// own entry registers all of its ~80 languages (~40 ms), which reading an address's country in any
// language needs (checks/address.ts) but naming a code does not (~6 ms): a test file's first
// visitor session pays only for English.
import type { LocaleData } from 'i18n-iso-countries';
import { lazy } from './lazy.js';

const core = lazy<typeof import('i18n-iso-countries')>('i18n-iso-countries/index');
const english = lazy<LocaleData>('i18n-iso-countries/langs/en.json');
let registered = false;

/** The country library with English registered (every language once checks/address.ts loads them). */
export function countries(): typeof import('i18n-iso-countries') {
  const c = core();
  if (!registered) {
    c.registerLocale(english());
    registered = true;
  }
  return c;
}

// Address check: country names/codes → ISO alpha-2, US/CA states → codes, postal code against the
// country's format. Offline: nothing is geocoded, so a well-formed address is "valid".
import { createRequire } from 'node:module';
import { lazy } from '../domain/lazy.js';

const countryNames = lazy<typeof import('i18n-iso-countries')>('i18n-iso-countries');
import { countryName } from '../domain/ip-intel.js';
import { visibleText } from './visible-text.js';
import { readPostalCode } from './postal-code.js';

export interface AddressInput {
  address1?: string | null;
  address2?: string | null;
  city?: string | null;
  state?: string | null;
  country?: string | null;
  postal_code?: string | null;
}

export interface AddressCheck {
  success: boolean;
  valid: boolean;
  address1: string | null;
  address2: string | null;
  city: string | null;
  state: string | null;
  state_code: string | null;
  country_code: string | null;
  country_name: string | null;
  postal_code: string | null;
  /** null when there is no postal code, no known country, or no rule for the country. */
  postal_code_valid: boolean | null;
  in_country: boolean | null;
}

const MAX_FIELD = 1000;

const US_STATES: Record<string, string> = {
  AL: 'Alabama', AK: 'Alaska', AZ: 'Arizona', AR: 'Arkansas', CA: 'California', CO: 'Colorado',
  CT: 'Connecticut', DE: 'Delaware', DC: 'District of Columbia', FL: 'Florida', GA: 'Georgia',
  HI: 'Hawaii', ID: 'Idaho', IL: 'Illinois', IN: 'Indiana', IA: 'Iowa', KS: 'Kansas', KY: 'Kentucky',
  LA: 'Louisiana', ME: 'Maine', MD: 'Maryland', MA: 'Massachusetts', MI: 'Michigan', MN: 'Minnesota',
  MS: 'Mississippi', MO: 'Missouri', MT: 'Montana', NE: 'Nebraska', NV: 'Nevada', NH: 'New Hampshire',
  NJ: 'New Jersey', NM: 'New Mexico', NY: 'New York', NC: 'North Carolina', ND: 'North Dakota',
  OH: 'Ohio', OK: 'Oklahoma', OR: 'Oregon', PA: 'Pennsylvania', RI: 'Rhode Island',
  SC: 'South Carolina', SD: 'South Dakota', TN: 'Tennessee', TX: 'Texas', UT: 'Utah', VT: 'Vermont',
  VA: 'Virginia', WA: 'Washington', WV: 'West Virginia', WI: 'Wisconsin', WY: 'Wyoming',
  AS: 'American Samoa', GU: 'Guam', MP: 'Northern Mariana Islands', PR: 'Puerto Rico',
  VI: 'U.S. Virgin Islands', AA: 'Armed Forces Americas', AE: 'Armed Forces Europe', AP: 'Armed Forces Pacific',
};
const CA_PROVINCES: Record<string, string> = {
  AB: 'Alberta', BC: 'British Columbia', MB: 'Manitoba', NB: 'New Brunswick',
  NL: 'Newfoundland and Labrador', NS: 'Nova Scotia', NT: 'Northwest Territories', NU: 'Nunavut',
  ON: 'Ontario', PE: 'Prince Edward Island', QC: 'Quebec', SK: 'Saskatchewan', YT: 'Yukon',
};
const STATE_TABLES: Record<string, Record<string, string>> = { US: US_STATES, CA: CA_PROVINCES };
// US territories with their own ISO 3166-1 code. A US postal address writes them as states, while
// the phone section (libphonenumber: +1 787 is PR) and IP geolocation name the territory: so does
// the address, so that a Puerto Rico address and a Puerto Rico phone agree.
const US_TERRITORIES = new Set(['AS', 'GU', 'MP', 'PR', 'VI']);
const usLike = (country: string) => country === 'US' || US_TERRITORIES.has(country);
// Everyday names and abbreviations of a state (in key() form) → its code.
const STATE_ALIASES: Record<string, Record<string, string>> = {
  US: { 'washington dc': 'DC', 'us virgin islands': 'VI', 'virgin islands': 'VI' },
  CA: { pei: 'PE', newfoundland: 'NL', labrador: 'NL', 'yukon territory': 'YT' },
};

// Common names that are not in i18n-iso-countries' lists (in key() form): everyday names, ISO 3166
// names it lacks, and the English names browsers show (Intl.DisplayNames, from CLDR).
const COUNTRY_ALIASES: Record<string, string> = {
  england: 'GB', scotland: 'GB', wales: 'GB', 'northern ireland': 'GB', britain: 'GB',
  holland: 'NL', 'the netherlands': 'NL', america: 'US', 'united states of america': 'US',
  'united kingdom of great britain and northern ireland': 'GB', 'democratic peoples republic of korea': 'KP',
  // ISO 3166's "Congo" is the Republic of the Congo; the other one is always named in full.
  congo: 'CG', 'republic of congo': 'CG', 'democratic republic of congo': 'CD',
  // "Korea" alone on an address is the Republic of Korea (CLDR's "South Korea"); the North is always named.
  korea: 'KR',
  'us outlying islands': 'UM', 'caribbean netherlands': 'BQ', 'palestinian territories': 'PS',
  'macao sar china': 'MO', 'vatican city': 'VA', 'heard and mcdonald islands': 'HM',
  'south georgia and south sandwich islands': 'GS', 'saint vincent and grenadines': 'VC',
  // As checkout forms and the short names browsers show write them.
  'republic of ireland': 'IE', 'hong kong sar': 'HK', 'macao sar': 'MO', 'macau sar': 'MO', 'mainland china': 'CN',
  'china mainland': 'CN', bosnia: 'BA', 'cocos islands': 'CC', vatican: 'VA', 'east timor': 'TL',
  'slovak republic': 'SK', 'dr congo': 'CD', drc: 'CD', 'turks and caicos': 'TC',
  // Codes in everyday use that ISO 3166 spells otherwise: the EU's for Greece, Saudi Arabia's, South Africa's.
  el: 'GR', ksa: 'SA', rsa: 'ZA',
};

// Lower case, no accents, dots or apostrophes, "&" as "and", "St." as "Saint", single spaces:
// "Québec" ≈ "quebec", "U.S.A." ≈ "usa", "St. Kitts & Nevis" ≈ "saint kitts and nevis".
function key(s: string): string {
  return s.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase().replace(/[.'’‘`]/g, '')
    .replace(/&/g, ' and ').replace(/[\s,_()-]+/g, ' ').trim().replace(/^st /, 'saint ');
}

/**
 * A name with a qualifier, "Iran (Islamic Republic of)" or "Iran, Islamic Republic of" (as ISO 3166
 * writes them), also read as "Islamic Republic of Iran" and then as its main part, "Iran".
 */
function nameForms(name: string): string[] {
  const m = /^(.+?)\s*\((.+)\)$/.exec(name) ?? /^([^,]+),\s*(.+)$/.exec(name);
  if (!m) return [name];
  const [, main, qualifier] = m;
  const q = qualifier.trim().replace(/^the\s+/i, '');
  return /^the$/i.test(q) ? [name, main] : [name, `${q} ${main}`, main];
}

// name (in any registered language) → alpha-2, built once; English names win collisions.
let nameIndex: Map<string, string> | undefined;
function countryNameIndex(): Map<string, string> {
  if (nameIndex) return nameIndex;
  nameIndex = new Map(Object.entries(COUNTRY_ALIASES));
  const countries = countryNames();
  const langs = ['en', ...countries.getSupportedLanguages().filter((l) => l !== 'en')];
  for (const lang of langs) {
    for (const [code, names] of Object.entries(countries.getNames(lang, { select: 'all' }))) {
      // Each name also without its parenthesised part ("Falkland Islands (Malvinas)"), and with a
      // qualifier after a comma in front ("Virgin Islands, British" as "British Virgin Islands").
      for (const n of [names].flat()) {
        const forms = /[(,]/.test(n) ? [n, n.replace(/\s*\(.*\)$/, ''), n.replace(/^([^,]+),\s*(.+)$/, '$2 $1')] : [n];
        for (const f of forms) {
          const k = key(f);
          if (!nameIndex.has(k)) nameIndex.set(k, code);
        }
      }
    }
  }
  return nameIndex;
}

/** ISO 3166-1 alpha-2 for an alpha-2/alpha-3 code or a country name, or null when unknown. */
export function toCountryCode(input: string): string | null {
  const s = input.trim();
  const countries = countryNames();
  if (/^[A-Za-z]{2}$/.test(s) && countries.isValid(s.toUpperCase())) return s.toUpperCase();
  if (/^[A-Za-z]{3}$/.test(s) && countries.isValid(s.toUpperCase())) return countries.alpha3ToAlpha2(s.toUpperCase()) ?? null;
  for (const form of nameForms(s)) {
    // "The Bahamas", "the Netherlands": a leading article is not part of the name.
    const k = key(form);
    const code = countryNameIndex().get(k) ?? countryNameIndex().get(k.replace(/^the /, ''));
    if (code) return code;
  }
  return null;
}

type StateMatch = { code: string; name: string; country: string };
// Per country: a code or a name's key → the state, built once (key() per name per check was most of
// a check's address time). In table order, first entry wins, as a scan would find it.
let stateIndex: Map<string, Map<string, StateMatch>> | undefined;
function stateIndexes(): Map<string, Map<string, StateMatch>> {
  if (stateIndex) return stateIndex;
  stateIndex = new Map();
  for (const [country, table] of Object.entries(STATE_TABLES)) {
    const m = new Map<string, StateMatch>();
    for (const [code, name] of Object.entries(table)) {
      for (const k of [code.toLowerCase(), key(name)]) if (!m.has(k)) m.set(k, { code, name, country });
    }
    for (const [k, code] of Object.entries(STATE_ALIASES[country] ?? {})) if (!m.has(k)) m.set(k, { code, name: table[code], country });
    stateIndex.set(country, m);
  }
  return stateIndex;
}

function stateOf(state: string, country: string | null): StateMatch | null {
  const k = key(state);
  // A territory's address may name itself as its state ("Puerto Rico", "PR"), nothing else.
  if (country && US_TERRITORIES.has(country)) {
    const hit = stateIndexes().get('US')!.get(k);
    return hit?.code === country ? hit : null;
  }
  const tables = country ? (STATE_TABLES[country] ? [country] : []) : Object.keys(STATE_TABLES);
  for (const c of tables) {
    const hit = stateIndexes().get(c)!.get(k);
    if (hit) return hit;
  }
  return null;
}

type Parsed = { city?: string; state?: string; zip?: string; plus4?: string };
let parseLocation: ((s: string) => Parsed | null) | undefined;
// parse-address (CJS, untyped) reads a one-line US address; only used when the parts are missing.
function parseUsLine(line: string): Parsed | null {
  try {
    parseLocation ??= createRequire(import.meta.url)('parse-address').parseLocation as (s: string) => Parsed | null;
    return parseLocation(line);
  } catch {
    return null;
  }
}

function field(v: unknown, tooLong: { hit: boolean }): string | null {
  if (typeof v !== 'string') return null;
  const s = visibleText(v);
  if (s.length > MAX_FIELD) {
    tooLong.hit = true;
    return null;
  }
  return s.length > 0 ? s : null;
}

export function checkAddress(input: AddressInput, siteCountry: string | null): AddressCheck {
  const tooLong = { hit: false };
  const src = (input && typeof input === 'object' ? input : {}) as Record<string, unknown>;
  const address1 = field(src.address1, tooLong);
  const address2 = field(src.address2, tooLong);
  let city = field(src.city, tooLong);
  let state = field(src.state, tooLong);
  const countryIn = field(src.country, tooLong);
  let postal = field(src.postal_code, tooLong);
  const site = typeof siteCountry === 'string' && siteCountry.length === 2 ? siteCountry.toUpperCase() : null;

  let country = countryIn ? toCountryCode(countryIn) : null;
  const unknownCountry = countryIn !== null && country === null;

  // (Bounded length: one address line is short, and this keeps the regex parser cheap.)
  if (address1 && address1.length <= 300 && !city && !state && !postal && usLike(country ?? site ?? 'US')) {
    const p = parseUsLine(address1);
    if (p?.state) {
      city = p.city ?? null;
      state = p.state;
      postal = p.zip ? (p.plus4 ? `${p.zip}-${p.plus4}` : p.zip) : null;
    }
  }

  // No country given: a US/CA state tells it, else the address is read in the site's country. A US
  // territory written as a state of the US is the territory.
  const st = state ? stateOf(state, country) : null;
  const territory = st && st.country === 'US' && US_TERRITORIES.has(st.code) ? st.code : null;
  if (territory && (country === null || country === 'US') && !unknownCountry) country = territory;
  // An empty address is in no country: the site's is not assumed for it (in_country stays null).
  const nothing = !address1 && !address2 && !city && !state && !countryIn && !postal;
  if (!country && !unknownCountry && !nothing) country = st?.country ?? site;

  // NFKC: full-width digits and hyphens, as a Japanese keyboard types them, are the same code.
  if (postal) postal = postal.normalize('NFKC').toUpperCase().replace(/\s+/g, ' ');
  let postalValid: boolean | null = null;
  if (postal && country) ({ postal, valid: postalValid } = readPostalCode(postal, country));

  return {
    success: true,
    valid: !tooLong.hit && !nothing && !unknownCountry && postalValid !== false,
    address1,
    address2,
    city,
    state: st?.name ?? state,
    state_code: st?.code ?? null,
    country_code: country,
    country_name: countryName(country),
    postal_code: postal,
    postal_code_valid: postalValid,
    in_country: country && site ? country === site : null,
  };
}

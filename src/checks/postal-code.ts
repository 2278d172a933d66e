// A postal code read against its country's format, in the forms people actually type it, and
// reported in one form per country: the one its national post writes.
import { lazy } from '../domain/lazy.js';

const postcodes = lazy<typeof import('postcode-validator')>('postcode-validator');

// Country prefixes written before a European postal code ("D-10115", "CH 8001"): the country's
// ISO code, or its international vehicle sign where that differs (the older, still common, form).
const VEHICLE_SIGNS: Record<string, string[]> = {
  AT: ['A'], BE: ['B'], DE: ['D'], ES: ['E'], FI: ['FIN'], FR: ['F'], GB: ['UK'], HU: ['H'], IE: ['IRL'],
  IT: ['I'], LI: ['FL'], LU: ['L'], MT: ['M'], NO: ['N'], PT: ['P'], SE: ['S'], SI: ['SLO'], EE: ['EST'],
  RS: ['SRB'], SM: ['RSM'], VA: ['V'], AD: ['AND'], MC: ['MC'],
};

// The national form, from the code without spaces or hyphens, where it has a separator or a
// prefix of its own. Any other country writes its code without either.
const at = (i: number, sep: string) => (c: string) => `${c.slice(0, i)}${sep}${c.slice(i)}`;
const inward = (c: string) => `${c.slice(0, -3)} ${c.slice(-3)}`; // UK style: "SW1A 1AA"
const zipPlus4 = (c: string) => (c.length === 9 ? at(5, '-')(c) : c);
const prefixed = (p: string) => (c: string) => (c.startsWith(p) ? `${p}-${c.slice(p.length)}` : `${p}-${c}`);
const NATIONAL_FORMS: Record<string, (compact: string) => string> = {
  GB: inward, JE: inward, GG: inward, IM: inward,
  CA: at(3, ' '), IE: at(3, ' '), SE: at(3, ' '), CZ: at(3, ' '), SK: at(3, ' '), GR: at(3, ' '),
  NL: at(4, ' '), BM: at(2, ' '), MT: (c) => c.replace(/^([A-Z]{3})/, '$1 '),
  JP: at(3, '-'), PL: at(2, '-'), BR: at(5, '-'), KY: at(3, '-'),
  PT: (c) => (c.length === 7 ? at(4, '-')(c) : c),
  US: zipPlus4, PR: zipPlus4, GU: zipPlus4, VI: zipPlus4, MP: zipPlus4, MH: zipPlus4, FM: zipPlus4,
  // Latvia, Lithuania and Anguilla write their prefix as part of the code, at home too.
  LV: prefixed('LV'), LT: prefixed('LT'), AI: prefixed('AI'),
};

// Where postcode-validator's rule misses the form a country's addresses use today: Argentina's
// four-digit code (what most of its checkout forms ask for; the CPA, C1002AAA, is rarely known),
// and Nicaragua's five digits (the rule has an older, dashed scheme).
const RULES: Record<string, RegExp> = {
  AR: /^(?:[A-HJ-NP-Z]\d{4}(?:[A-Z]{3})?|\d{4})$/,
  NI: /^\d{5}$/,
};

// Real codes postcode-validator's rule leaves out, beside the ones it takes: the UK's GIR 0AA
// (Girobank's, non-geographic).
const ALSO: Record<string, RegExp> = { GB: /^GIR 0AA$/ };

function fits(code: string, country: string): boolean {
  return RULES[country]?.test(code) ?? (postcodes().postcodeValidator(code, country) || (ALSO[country]?.test(code) ?? false));
}

export interface PostalCode {
  postal: string;
  /** null when the country has no postal code rule. */
  valid: boolean | null;
}

/** The national form of `code` when it is a valid code of `country` once written so, else null. */
function nationalForm(code: string, country: string): string | null {
  const compact = code.replace(/[\s-]+/g, '');
  const form = NATIONAL_FORMS[country]?.(compact) ?? compact;
  if (fits(form, country)) return form;
  // A format whose separator no table above knows: the first place one makes the code valid.
  // (No postal code is longer than 10 characters; a long text is not tried at every place.)
  for (let i = 1; i < Math.min(compact.length, 12); i++) {
    for (const sep of [' ', '-']) if (fits(at(i, sep)(compact), country)) return at(i, sep)(compact);
  }
  return null;
}

/** `postal` is upper-cased, NFKC-normalised text; `country` an ISO alpha-2 code. */
export function readPostalCode(postal: string, country: string): PostalCode {
  if (!postcodes().postcodeValidatorExistsForCountry(country)) return { postal, valid: null };
  try {
    // A prefix naming the address's own country ("D-10115", or "D 10115" with a space) is dropped;
    // another country's keeps it invalid.
    const m = /^([A-Z]{1,3})(?:\s*-\s*|\s+)(.+)$/.exec(postal);
    if (m && (m[1] === country || VEHICLE_SIGNS[country]?.includes(m[1]))) {
      const rest = nationalForm(m[2], country);
      if (rest !== null) return { postal: rest, valid: true };
    }
    const form = nationalForm(postal, country);
    if (form !== null) return { postal: form, valid: true };
    // The country's ISO code glued to the digits ("AZ1000", "MD2001", as Azerbaijan's and Moldova's
    // addresses often write it), tried only once the code as typed is not valid (JE2 3AB is Jersey's).
    if (postal.startsWith(country) && /^\d/.test(postal.slice(country.length))) {
      const rest = nationalForm(postal.slice(country.length), country);
      if (rest !== null) return { postal: rest, valid: true };
    }
    // Valid as typed in a shape the forms above do not rebuild.
    return { postal, valid: fits(postal, country) };
  } catch {
    return { postal, valid: null };
  }
}

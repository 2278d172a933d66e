// Country-level IP database: the CC0 geo-whois-asn-country MMDB (records look like
// `{ country_code: "US" }`), read synchronously and lazily on first lookup so that commands
// which never look up an IP do not pay for loading ~8 MB.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Reader, Response } from 'maxmind';
import type { CountryLookup } from '../domain/ip-intel.js';

// maxmind's typings only know MaxMind's own schemas; this DB's records are read structurally.
type CountryRecord = { country_code?: unknown } | null;

/** Path of the bundled database file, or null when the package cannot be resolved. */
export function defaultCountryDbPath(): string | null {
  try {
    const pkg = createRequire(import.meta.url).resolve('@ip-location-db/geo-whois-asn-country-mmdb/package.json');
    return join(dirname(pkg), 'geo-whois-asn-country.mmdb');
  } catch {
    return null;
  }
}

/** A lookup over the MMDB at `path`; a missing or unreadable file makes it answer null, never throw. */
export function createCountryLookup(path: string | null = defaultCountryDbPath()): CountryLookup {
  let reader: Reader<Response> | null | undefined; // undefined = not loaded yet
  return (ip: string) => {
    if (reader === undefined) {
      try {
        reader = path ? new (createRequire(import.meta.url)('maxmind') as typeof import('maxmind')).Reader<Response>(readFileSync(path)) : null;
      } catch {
        reader = null;
      }
    }
    if (!reader) return null;
    try {
      const code = (reader.get(ip) as CountryRecord)?.country_code;
      return typeof code === 'string' && /^[A-Z]{2}$/.test(code) ? code : null;
    } catch {
      return null; // invalid address
    }
  };
}

let shared: CountryLookup | undefined;

/** The process-wide lookup over the bundled database (loaded on first use). */
export function countryDb(): CountryLookup {
  shared ??= createCountryLookup();
  return shared;
}

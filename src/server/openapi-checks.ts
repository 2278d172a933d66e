// OpenAPI schemas of POST /event: the visitor-check request and result (contract section 3).
// Sections list the contract's fields; they may carry more (additional properties allowed).
import { RISK_LEVELS } from '../domain/session.js';

type Schema = Record<string, unknown>;
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const orNull = (name: string) => ({ anyOf: [ref(name), { type: 'null' }] });
const str = { type: ['string', 'null'] };
const bool = { type: ['boolean', 'null'] };
const num = { type: ['number', 'null'] };
const int = { type: ['integer', 'null'] };

/** A section: `success` and `valid` always, the rest as listed (null when not known). */
function section(description: string, fields: Record<string, Schema>, opts: { valid?: boolean } = {}): Schema {
  const base: Record<string, Schema> = { success: { type: 'boolean', description: 'false: the value could not be checked' } };
  if (opts.valid !== false) base.valid = { type: 'boolean', description: 'false: the value was checked and is bad' };
  return { type: 'object', description, required: [...Object.keys(base), ...Object.keys(fields)], properties: { ...base, ...fields } };
}

export function checkResultSchemas(): Record<string, Schema> {
  return {
    EventRequest: {
      type: 'object',
      description: 'Every field is optional (null means not sent); more fields give better results. Unknown fields are ignored.',
      properties: {
        probe_id: { type: ['string', 'null'], description: 'From the client-side agent; empty or malformed values are reported invalid' },
        ip: { type: ['string', 'null'], description: "The end user's public IPv4 or IPv6 address" },
        email: { type: ['string', 'null'] },
        name: { type: ['string', 'null'], description: "The customer's full name" },
        phone: { type: ['string', 'null'], description: "Any format; local numbers are read in the site's country" },
        address: {
          type: ['object', 'null'],
          properties: Object.fromEntries(['address1', 'address2', 'city', 'state', 'country', 'postal_code'].map((k) => [k, { type: ['string', 'null'] }])),
        },
        secret_key: { type: 'string', description: "The site's secret key (`vtr keys show`)" },
      },
    },
    CheckResult: {
      type: 'object',
      required: ['id', 'created_at', 'session_id', 'risk_level', 'risks', 'device', 'ip', 'email', 'phone', 'address'],
      properties: {
        id: { type: 'string' },
        created_at: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{6}$' },
        session_id: { type: ['string', 'null'], description: "The probe's session" },
        risk_level: { type: 'string', enum: [...RISK_LEVELS] },
        risks: { type: 'array', items: { type: 'string' } },
        device: orNull('DeviceCheck'),
        ip: orNull('IpCheck'),
        email: orNull('EmailCheck'),
        phone: orNull('PhoneCheck'),
        address: orNull('AddressCheck'),
      },
    },
    DeviceCheck: section('The probe: its session, device and integrity', {
      probe_id: str, probe_created_at: str, probe_mins_elapsed: num, probe_ip_match: bool, fingerprint: str,
      browser_name: str, browser_version: str, os_family: str, os_version: str,
      device_type: { type: ['string', 'null'], enum: ['mobile', 'tablet', 'computer', null] },
      language: str, timezone: str, bot: bool, headless_browser: bool,
    }),
    IpCheck: section('The IP address', {
      ip: str, ip_network: str, version: { type: ['integer', 'null'], enum: [4, 6, null] }, isp: str, country_code: str,
      country_name: str, city: str, timezone: str, in_country: bool, vpn: bool, proxy: bool, tor: bool, hosting: bool, bogon: bool,
    }, { valid: false }),
    EmailCheck: section('The email address', {
      email: str, local_part: str, normalized_email: str, domain: str, domain_tld: str, free: bool, disposable: bool,
      business: bool, name_match: bool, digits_count: int,
    }),
    PhoneCheck: section('The phone number', {
      phone: { type: ['string', 'null'], description: 'E.164' }, phone_international: str, phone_national: str,
      country_code: str, country_name: str, type: { type: ['string', 'null'], description: 'mobile, fixed_line, toll_free, ...' }, in_country: bool,
    }),
    AddressCheck: section('The postal address, normalised', {
      address1: str, address2: str, city: str, state: str, state_code: str, country_code: str, country_name: str,
      postal_code: str, postal_code_valid: bool, in_country: bool,
    }),
  };
}

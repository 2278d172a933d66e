// POST /api/v1/event: the visitor-check request and its result (contract section 3). Sections stay
// open (additional properties allowed): a newer emulator may answer more.
import * as z from 'zod';
import { DEVICE_TYPES, RISK_LEVELS } from '../domain/session.js';
import { OUTCOMES, RULE_ACTIONS, RULE_TYPES } from '../domain/rules.js';
import { Timestamp } from './common.js';

// A request's null reads as "not sent", like an absent field.
const text = z.string({ error: 'expected a string' }).nullable().optional();
const ADDRESS_FIELDS = ['address1', 'address2', 'city', 'state', 'country', 'postal_code'] as const;
const AddressRequest = z.object(
  { address1: text, address2: text, city: text, state: text, country: text, postal_code: text },
  { error: `expected an object with string fields ${ADDRESS_FIELDS.join(', ')}` },
);

/** The request. Unknown fields are ignored (a newer client may send more). */
export const CheckRequest = z
  .object({
    probe_id: text.meta({ description: 'From the client-side agent; empty or malformed values are reported invalid' }),
    ip: text.meta({ description: "The end user's public IPv4 or IPv6 address" }),
    email: text,
    name: text.meta({ description: "The customer's full name" }),
    phone: text.meta({ description: "Any format; local numbers are read in the site's country" }),
    address: AddressRequest.nullable().optional(),
    external_id: z
      .union([
        z.string().max(50, 'must be at most 50 characters'),
        // Past 2^53 JSON.parse has already rounded the number: say how to keep every digit.
        z.number().int()
          .min(-Number.MAX_SAFE_INTEGER, `must be at least -${Number.MAX_SAFE_INTEGER}; send a larger id as a string, or its digits are lost`)
          .max(Number.MAX_SAFE_INTEGER, `must be at most ${Number.MAX_SAFE_INTEGER}; send a larger id as a string, or its digits are lost`),
      ], { error: 'expected a string or an integer, at most 50 characters' })
      // Characters as zod's max counts them (code points), for the integer's digits too.
      .refine((v) => [...String(v)].length <= 50, 'must be at most 50 characters')
      .nullable()
      .optional()
      .meta({ description: 'Your own reference for the check (at most 50 characters); stored and echoed in the answer' }),
    // Missing or unknown: a 401 (the route's handler says which). Null is "not sent", as for every
    // field: the bearer is used then.
    secret_key: z.string({ error: 'expected a string' }).nullable().optional().meta({ description: "The site's secret key (`vtr keys show`)" }),
  })
  .meta({
    id: 'EventRequest',
    description: 'Every field is optional (null means not sent); more fields give better results. Unknown fields are ignored.',
  });

const str = z.string().nullable();
const bool = z.boolean().nullable();
const num = z.number().nullable();
const int = z.number().int().nullable();

/** false when the value was checked and is bad. */
const valid = z.boolean().meta({ description: 'false: the value was checked and is bad' });

/** A section: `success` always, the rest as listed (null when not known). */
function section<S extends z.ZodRawShape>(id: string, description: string, fields: S) {
  return z
    .looseObject({ success: z.boolean().meta({ description: 'false: the value could not be checked' }), ...fields })
    .meta({ id, description });
}

// Each section declares every field the emulator answers, in the answer's order: the contract's
// and the ones docs/checks.md adds, so generated clients and the library's types see them all.
export const DeviceCheck = section('DeviceCheck', 'The probe: its session, device and integrity', {
  valid, probe_id: str,
  invalid_reason: z.enum(['empty', 'malformed', 'unknown']).nullable().meta({ description: "Why valid is false (another site's probe is unknown); null when valid" }),
  probe_created_at: str, probe_mins_elapsed: num, probe_ip_match: bool, session_id: str, fingerprint: str, returned: bool,
  browser_name: str, browser_family: str, browser_version: str, os_family: str, os_version: str, device_type: z.enum(DEVICE_TYPES).nullable(),
  language: str, timezone: str, user_agent: str, probe_ip: str.meta({ description: "The IP of the probe's page view" }),
  bot: bool, crawler: bool, headless_browser: bool,
});
export const IpCheck = section('IpCheck', 'The IP address', {
  valid: valid.meta({ description: 'false: not an IP address' }), ip: str, ip_network: str, version: z.union([z.literal(4), z.literal(6), z.null()]), isp: str, country_code: str,
  country_name: str, city: str, timezone: str, in_country: bool, vpn: bool, proxy: bool, tor: bool, hosting: bool, anonymous: bool, bogon: bool,
  private: bool,
});
export const EmailCheck = section('EmailCheck', 'The email address', {
  valid, email: str, local_part: str, normalized_email: str, domain: str, domain_tld: str, free: bool, disposable: bool,
  business: bool, role: bool.meta({ description: 'A role account: info@, support@, ...' }), name_match: bool, digits_count: int,
});
export const PhoneCheck = section('PhoneCheck', 'The phone number', {
  valid, phone: str.meta({ description: 'E.164' }), phone_international: str, phone_national: str,
  country_code: str, country_name: str, type: str.meta({ description: 'mobile, fixed_line, toll_free, ...' }),
  carrier: str.meta({ description: 'Always null: the emulator has no carrier data' }), in_country: bool,
});
export const AddressCheck = section('AddressCheck', 'The postal address, normalised', {
  valid, address1: str, address2: str, city: str, state: str, state_code: str, country_code: str, country_name: str,
  postal_code: str, postal_code_valid: bool, in_country: bool,
});

// A union, not .nullable(): the section stays a $ref to its own (non-null) component.
const orNull = <S extends z.ZodType>(section: S) => z.union([section, z.null()]);

export const CheckResult = z
  .looseObject({
    id: z.string(),
    created_at: Timestamp,
    session_id: str.meta({ description: "The probe's session" }),
    risk_level: z.enum(RISK_LEVELS),
    risks: z.array(z.string()),
    outcome: z.enum(OUTCOMES).meta({ description: "The site's decision: allowed when a matched rule allows, else blocked when one blocks (invalid traffic is always blocked), else neutral" }),
    review: z.boolean().meta({ description: 'A matched rule asks for review (allow_review, review, block_review)' }),
    rules: z
      .array(z.object({ id: z.string(), type: z.enum(RULE_TYPES), name: z.string(), action: z.enum(RULE_ACTIONS) }).meta({ id: 'MatchedRule' }))
      .meta({ description: 'Every rule that matched, in evaluation order; branch on id, never name' }),
    external_id: z.union([z.string(), z.number(), z.null()]).meta({ description: 'As sent, or null' }),
    device: orNull(DeviceCheck),
    ip: orNull(IpCheck),
    email: orNull(EmailCheck),
    phone: orNull(PhoneCheck),
    address: orNull(AddressCheck),
  })
  .meta({ id: 'CheckResult' });

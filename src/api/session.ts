// The Session resource (GET /api/v1/session/{id}): every field always present, null where unknown.
import * as z from 'zod';
import {
  CHANNELS, DEVICE_TYPES, ENGAGEMENT_LEVELS, RISK_LEVELS, SESSION_FIELDS, SESSION_FIELD_KINDS, type Session, type SessionField,
} from '../domain/session.js';
import { Timestamp } from './common.js';

/** Fields the emulator always fills (the rest are null when unknown). */
const NEVER_NULL = new Set<SessionField>(['site_id', 'session_id', 'created_at', 'updated_at']);
const INTEGER_FIELDS = new Set<SessionField>(['duration', 'page_views']);
const ENUMS: Partial<Record<SessionField, readonly [string, ...string[]]>> = {
  risk_level: RISK_LEVELS,
  engagement_level: ENGAGEMENT_LEVELS,
  channel: CHANNELS,
  device_type: DEVICE_TYPES,
};
const NOTES: Partial<Record<SessionField, string>> = {
  duration: 'Seconds from the first to the last activity',
  fingerprint: 'Visitor fingerprint identifier',
  risks: 'Risk labels, e.g. bot, tor, vpn, hosting, anonymous, invalid_probe, ip_mismatch',
  actions: 'Actions taken on the session',
  custom_events: 'Names of custom events, in order (repeats kept)',
  channel: 'paid: a recognised ad click id; other: utm_source; referral: an external referrer; direct: none of these',
  ip_network: 'First three octets (IPv4) or the /64 (IPv6)',
  country_code: 'ISO 3166-1 alpha-2',
  device_type: 'null when indeterminate',
  language: 'IETF language tag of the client locale',
  timezone: 'tz database name, "Area/Location"',
};

function fieldSchema(f: SessionField): z.ZodType {
  const kind = SESSION_FIELD_KINDS[f];
  const values = ENUMS[f];
  let s: z.ZodType;
  if (f === 'created_at' || f === 'updated_at') s = Timestamp;
  else if (kind === 'array') s = z.array(z.string());
  else {
    const base = values ? z.enum(values) : kind === 'number' ? (INTEGER_FIELDS.has(f) ? z.number().int() : z.number()) : kind === 'boolean' ? z.boolean() : z.string();
    s = NEVER_NULL.has(f) ? base : base.nullable();
  }
  return NOTES[f] ? s.meta({ description: NOTES[f] }) : s;
}

type SessionShape = { [K in SessionField]: z.ZodType<Session[K]> };

export const SessionSchema = z
  .strictObject(Object.fromEntries(SESSION_FIELDS.map((f) => [f, fieldSchema(f)])) as SessionShape)
  .meta({ id: 'Session', description: 'A visitor session. Every field is always present; null where unknown.' });

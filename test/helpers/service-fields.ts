// The Session resource as the service description documents it (shared/seed/service-api.md,
// "Session" and "Enumerations"), written out here on purpose: tests compare the product against
// this list, never against the product's own constants, so dropping a field there fails a test.

/** JSON type of a field as documented (integer and decimal are both JSON numbers). */
export type DocumentedType = 'string' | 'integer' | 'number' | 'boolean' | 'array';

/** The 45 Session fields in the documented order, with their documented JSON types. */
export const DOCUMENTED_SESSION_FIELDS: ReadonlyArray<readonly [string, DocumentedType]> = [
  ['site_id', 'string'],
  ['site_name', 'string'],
  ['session_id', 'string'],
  ['created_at', 'string'],
  ['updated_at', 'string'],
  ['duration', 'integer'],
  ['page_views', 'integer'],
  ['entry_hostname', 'string'],
  ['entry_path', 'string'],
  ['exit_hostname', 'string'],
  ['exit_path', 'string'],
  ['fingerprint', 'string'],
  ['returned', 'boolean'],
  ['risk_level', 'string'],
  ['engagement_level', 'string'],
  ['risks', 'array'],
  ['actions', 'array'],
  ['custom_events', 'array'],
  ['value', 'number'],
  ['channel', 'string'],
  ['source', 'string'],
  ['source_subtype', 'string'],
  ['source_id', 'string'],
  ['source_medium', 'string'],
  ['source_campaign', 'string'],
  ['source_group', 'string'],
  ['source_content', 'string'],
  ['source_term', 'string'],
  ['source_session_id', 'string'],
  ['referrer', 'string'],
  ['referrer_domain', 'string'],
  ['ip', 'string'],
  ['ip_network', 'string'],
  ['isp', 'string'],
  ['country_code', 'string'],
  ['city', 'string'],
  ['device_type', 'string'],
  ['browser_name', 'string'],
  ['browser_family', 'string'],
  ['browser_version', 'string'],
  ['os_family', 'string'],
  ['os_version', 'string'],
  ['language', 'string'],
  ['timezone', 'string'],
  ['user_agent', 'string'],
];

/** Field names only, in the documented order. */
export const FIELDS: readonly string[] = DOCUMENTED_SESSION_FIELDS.map(([f]) => f);

/** Documented type of each field. */
export const FIELD_TYPE: Readonly<Record<string, DocumentedType>> = Object.fromEntries(DOCUMENTED_SESSION_FIELDS);

/** A documented timestamp: UTC, ISO 8601 with microseconds, no zone suffix. The one pattern tests use. */
export const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/;

/** The documented enumerations (device_type may also be null: indeterminate). */
export const ENUMS = {
  risk_level: ['normal', 'unwanted', 'suspicious', 'invalid'],
  engagement_level: ['bounced', 'normal', 'engaged', 'converted'],
  channel: ['paid', 'other', 'referral', 'direct'],
  device_type: ['mobile', 'tablet', 'computer'],
} as const;

/** True when `value` has the field's documented JSON type (null is allowed for every field). */
export function hasDocumentedType(field: string, value: unknown): boolean {
  if (value === null) return true;
  switch (FIELD_TYPE[field]) {
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value) && value.every((v) => typeof v === 'string');
    case 'string':
      return typeof value === 'string';
    default:
      return false;
  }
}

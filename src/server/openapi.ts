// The OpenAPI 3.1 document of the public API (`vtr openapi`, GET /api/v1/openapi.json). Pure: built
// from the Session field list and enumerations, so it cannot drift from what the server returns.
import {
  CHANNELS, DEVICE_TYPES, ENGAGEMENT_LEVELS, RISK_LEVELS, SESSION_FIELDS, SESSION_FIELD_KINDS, type SessionField,
} from '../domain/session.js';
import { VERSION } from '../version.js';
import { checkResultSchemas } from './openapi-checks.js';

type Schema = Record<string, unknown>;

const TIMESTAMP = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{6}$', description: 'UTC, ISO 8601 with microseconds, no zone suffix' };
const nullable = (type: string) => ({ type: [type, 'null'] });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** Fields the emulator always fills (the rest are null when unknown). */
const NEVER_NULL = new Set<SessionField>(['site_id', 'session_id', 'created_at', 'updated_at']);
const INTEGER_FIELDS = new Set<SessionField>(['duration', 'page_views']);
const ENUMS: Partial<Record<SessionField, readonly string[]>> = {
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

function sessionFieldSchema(f: SessionField): Schema {
  const kind = SESSION_FIELD_KINDS[f];
  let s: Schema;
  if (f === 'created_at' || f === 'updated_at') s = { ...TIMESTAMP };
  else if (kind === 'array') s = { type: 'array', items: { type: 'string' } };
  else {
    const type = kind === 'number' && INTEGER_FIELDS.has(f) ? 'integer' : kind;
    s = NEVER_NULL.has(f) ? { type } : nullable(type);
  }
  const values = ENUMS[f];
  if (values) s.enum = [...values, null];
  if (NOTES[f]) s.description = NOTES[f];
  return s;
}

export function sessionSchema(): Schema {
  return {
    type: 'object',
    description: 'A visitor session. Every field is always present; null where unknown.',
    required: [...SESSION_FIELDS],
    additionalProperties: false,
    properties: Object.fromEntries(SESSION_FIELDS.map((f) => [f, sessionFieldSchema(f)])),
  };
}

/** Error codes per HTTP status (contract section 3). */
export const ERROR_CODES: Record<number, { name: string; codes: string[]; description: string }> = {
  400: { name: 'BadRequest', codes: ['invalid_json', 'invalid_request'], description: 'The body is not JSON, not an object, or a field has the wrong type; `message` names the field' },
  401: { name: 'Unauthorized', codes: ['unauthorized'], description: 'Missing or unknown bearer token or secret_key' },
  404: { name: 'NotFound', codes: ['not_found'], description: 'Unknown path or session, or a session of another site' },
  405: { name: 'MethodNotAllowed', codes: ['method_not_allowed'], description: 'Known path, wrong method (see the Allow header)' },
  413: { name: 'PayloadTooLarge', codes: ['payload_too_large'], description: 'The body is over 1 MiB' },
  415: { name: 'UnsupportedMediaType', codes: ['unsupported_media_type'], description: 'A body whose Content-Type is not JSON' },
  429: { name: 'RateLimited', codes: ['rate_limited'], description: 'Over `vtr serve --rate-limit` (see Retry-After)' },
  503: {
    name: 'DatabaseUnavailable',
    codes: ['database_busy', 'database_read_only'],
    description: 'Nothing was written. `database_busy`: another process on the same database file held its write lock for more than 5 s (a long `vtr state import`); try again. `database_read_only`: the database file cannot be written (permissions, a read-only filesystem); `message` names the file',
  },
  507: {
    name: 'InsufficientStorage',
    codes: ['insufficient_storage'],
    description: 'The disk holding the database file is full; nothing was written, reads still work, and writes resume once space is freed. `message` names the file',
  },
};

const errorSchema = (codes: string[]): Schema => ({
  type: 'object',
  required: ['code', 'message'],
  properties: { code: { type: 'string', enum: codes }, message: { type: 'string' } },
});

const json = (schema: Schema) => ({ 'application/json': { schema } });
const errors = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [String(s), { $ref: `#/components/responses/${ERROR_CODES[s].name}` }]));

const idParam = { name: 'id', in: 'path', required: true, description: 'The session identifier', schema: { type: 'string' } };

export interface OpenApiOptions {
  /** The public API base; default `/api/v1` (relative to where the document is served). */
  serverUrl?: string;
}

export function openApiDocument(opts: OpenApiOptions = {}): Schema {
  const responses = Object.fromEntries(
    Object.values(ERROR_CODES).map((e) => [e.name, { description: e.description, content: json(ref(`Error${e.name}`)) }]),
  );
  const errorSchemas = Object.fromEntries(Object.values(ERROR_CODES).map((e) => [`Error${e.name}`, errorSchema(e.codes)]));
  return {
    openapi: '3.1.0',
    info: {
      title: 'vtr — visitor-traffic risk service (public API)',
      version: VERSION,
      description: 'Sessions, custom events and visitor checks. Every error answer is {"code", "message"}.',
    },
    servers: [{ url: opts.serverUrl ?? '/api/v1' }],
    security: [{ bearerAuth: [] }],
    paths: {
      '/session/{id}': {
        get: {
          operationId: 'getSession',
          summary: 'Read one session',
          parameters: [idParam],
          responses: { '200': { description: 'The session', content: json(ref('Session')) }, ...errors(401, 404, 405, 429) },
        },
      },
      '/session/{id}/event': {
        post: {
          operationId: 'addCustomEvent',
          summary: "Append a custom event to the session's custom_events",
          parameters: [idParam],
          requestBody: { required: true, content: json(ref('CustomEventRequest')) },
          responses: {
            '200': { description: 'Added', content: json(ref('CustomEventResponse')) },
            ...errors(400, 401, 404, 405, 413, 415, 429, 503, 507),
          },
        },
      },
      '/event': {
        post: {
          operationId: 'checkVisitor',
          summary: 'Submit a visitor check (probe, IP, email, phone, address)',
          description: 'Authenticated by `secret_key` in the body, not by a header. Bad values are reported in the result; only wrong JSON types are a 400.',
          security: [],
          requestBody: { required: true, content: json(ref('EventRequest')) },
          responses: { '200': { description: 'The check result', content: json(ref('CheckResult')) }, ...errors(400, 401, 405, 413, 415, 429, 503, 507) },
        },
      },
    },
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'An access token of the site (`vtr tokens create`)' } },
      responses,
      schemas: {
        Session: sessionSchema(),
        CustomEventRequest: {
          type: 'object',
          required: ['name'],
          properties: {
            name: { type: 'string', minLength: 1, maxLength: 100 },
            value: { type: 'number', description: "Optional: added to the session's value" },
          },
        },
        CustomEventResponse: { type: 'object', required: ['success'], additionalProperties: false, properties: { success: { type: 'boolean', enum: [true] } } },
        ...checkResultSchemas(),
        ...errorSchemas,
      },
    },
  };
}

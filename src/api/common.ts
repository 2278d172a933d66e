// Pieces every schema of the API shares: the timestamp format and the error answer `{code, message}`.
// Schemas are plain zod with `.meta()` (read by the OpenAPI generator), so the client can check
// answers with them without loading the generator.
import * as z from 'zod';

/** UTC, ISO 8601 with microseconds, no zone suffix (what every API timestamp looks like). */
export const Timestamp = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/)
  .meta({ description: 'UTC, ISO 8601 with microseconds, no zone suffix' });

/** Any error answer: what the client requires of a non-2xx answer to call it the emulator's. */
export const ErrorBody = z.looseObject({ code: z.string(), message: z.string() });

/** Error codes per HTTP status of the public API (contract section 3). */
export const ERROR_CODES = {
  400: { name: 'BadRequest', codes: ['invalid_json', 'invalid_request'], description: 'The body is not JSON, not an object, or a field has the wrong type; `message` names the field' },
  401: { name: 'Unauthorized', codes: ['unauthorized'], description: 'Missing or unknown bearer token or secret_key' },
  404: { name: 'NotFound', codes: ['not_found'], description: 'Unknown path or session, or a session of another site' },
  405: { name: 'MethodNotAllowed', codes: ['method_not_allowed'], description: 'Known path, wrong method (see the Allow header)' },
  409: { name: 'Conflict', codes: ['conflict'], description: 'The site has no conversion events, so none can be added (`PUT /api/v1/session/{id}/conversion`)' },
  413: { name: 'PayloadTooLarge', codes: ['payload_too_large'], description: 'The body is over 1 MiB' },
  415: { name: 'UnsupportedMediaType', codes: ['unsupported_media_type'], description: 'A body whose Content-Type is not JSON or declares a charset other than UTF-8, or that is compressed (Content-Encoding) other than as gzip, deflate or br' },
  429: { name: 'RateLimited', codes: ['rate_limited'], description: 'Over `vtr serve --rate-limit` (see Retry-After)' },
  503: {
    name: 'DatabaseUnavailable',
    codes: ['database_busy', 'database_read_only', 'database_corrupt'],
    description: 'Nothing was written. `database_busy`: another process on the same database file held its write lock for more than 5 s (a long `vtr state import`); try again. `database_read_only`: the database file cannot be written (permissions, a read-only filesystem); `database_corrupt`: the part of the database file the request needs is damaged (also on reads); `message` names the file',
  },
  507: {
    name: 'InsufficientStorage',
    codes: ['insufficient_storage'],
    description: 'The disk holding the database file is full; nothing was written, reads still work, and writes resume once space is freed. `message` names the file',
  },
} as const satisfies Record<number, { name: string; codes: readonly [string, ...string[]]; description: string }>;

export type ErrorStatus = keyof typeof ERROR_CODES;

/** The error answer of one status, with that status's codes (`#/components/schemas/Error<Name>`). */
export const errorSchema = (status: ErrorStatus) => {
  const e = ERROR_CODES[status];
  // A refused field is named in `field` too (a dotted path: `address.city`), for code to read.
  const field = status === 400 ? { field: z.string().optional().meta({ description: 'The refused field, when one is: `email`, `address.city`' }) } : {};
  return z.object({ code: z.enum(e.codes), message: z.string(), ...field }).meta({ id: `Error${e.name}` });
};

export const ERROR_SCHEMAS = Object.fromEntries(
  (Object.keys(ERROR_CODES) as unknown as ErrorStatus[]).map((s) => [s, errorSchema(Number(s) as ErrorStatus)]),
) as Record<ErrorStatus, ReturnType<typeof errorSchema>>;

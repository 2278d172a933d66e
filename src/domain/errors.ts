// One error class with a string code per failure; the server maps it to {code, message} once.

export const ERROR_STATUS = {
  invalid_json: 400,
  invalid_request: 400,
  invalid_filter: 400,
  unauthorized: 401,
  forbidden: 403,
  plan_required: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  conflict: 409,
  retries_in_progress: 409,
  already_delivered: 409,
  webhook_disabled: 409,
  session_expired: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  headers_too_large: 431,
  schema_too_new: 409,
  rate_limited: 429,
  internal_error: 500,
  database_busy: 503,
  database_read_only: 503,
  database_corrupt: 503,
  insufficient_storage: 507,
  not_built: 503,
  shutting_down: 503,
  // A start refused (startEmulator rejects with them): never an answer, so their status is only nominal.
  database_not_sqlite: 503,
  database_foreign: 503,
  database_is_directory: 503,
  port_in_use: 503,
  port_denied: 503,
  host_unavailable: 503,
  // emu.webhooks.waitFor's time ran out.
  timeout: 408,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class VtrError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details?: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'VtrError';
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.details = details;
  }

  toJSON(): Record<string, unknown> {
    return { code: this.code, message: this.message, ...(this.details ?? {}) };
  }
}

/**
 * An id (or any short value a request gave) as a message shows it: as given when it is plain
 * printable ASCII, else quoted with control, bidi and zero-width characters escaped and cut at `max` characters, so a
 * path like `/sites/%00` puts no NUL, line break or screenful into a message, a terminal or a log.
 */
export function shownId(id: string, max = 100): string {
  if (id.length <= max && /^[\x21-\x7e]+$/.test(id)) return id;
  const chars = [...id];
  const cut = chars.length > max ? `${chars.slice(0, max).join('')}…` : id;
  return JSON.stringify(cut).replace(/[\u007f-\u009f\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export const notFound = (what: string) => new VtrError('not_found', `${what} not found`);
export const invalid = (message: string, details?: Record<string, unknown>) => new VtrError('invalid_request', message, details);

/** A paging cursor (`?before=<id>`) that names nothing: a clear 400 rather than the first page again. */
export const unknownCursor = (what: string, id: string) =>
  invalid(`before: no ${what} ${JSON.stringify(id.slice(0, 100))} (deleted, pruned or never existed); pass the last id of the page you have`, { field: 'before' });

/** A write refused because the disk is full, or the database cannot be written or is damaged (507 / 503). */
export const isStorageFault = (err: unknown): boolean =>
  err instanceof VtrError && (err.code === 'insufficient_storage' || err.code === 'database_read_only' || err.code === 'database_corrupt');

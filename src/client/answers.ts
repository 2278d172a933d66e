// What the emulator answers, checked by the client before anyone reads a field of it. An HTTP
// server that is not vtr (a web page, another API on the port, a proxy's error page) fails here
// with NotEmulatorError, named once, instead of a TypeError deep in whichever command asked.

/** The type of a JSON value, `?` suffixed: null or absent allowed too. */
type FieldType = 'string' | 'number' | 'boolean' | 'array' | 'object';
type Field = FieldType | `${FieldType}?`;
/** A JSON array of objects, or an object with these fields. */
export type AnswerShape = 'list' | Readonly<Record<string, Field>>;

export class NotEmulatorError extends Error {
  constructor(
    /** The request's URL, without its query. */
    readonly url: string,
    readonly status: number,
    /** What was wrong, e.g. `HTTP 200, text/html` or `HTTP 200, JSON without "now"`. */
    readonly detail: string,
  ) {
    super(`${url} did not answer like a vtr emulator (${detail})`);
    this.name = 'NotEmulatorError';
  }
}

const SITE = { site_id: 'string', site_key: 'string', secret_key: 'string' } as const;
const CLOCK = { now: 'string', mode: 'string' } as const;
const DELETED = { deleted: 'boolean' } as const;
const TOKEN = { token: 'string', site_id: 'string' } as const;
const VIEW = { saved_view_id: 'string' } as const;
const WEBHOOK = { webhook_id: 'string', url: 'string', status: 'string' } as const;
const EVENT = { webhook_event_id: 'string', webhook_id: 'string', status: 'string' } as const;
const SESSION = { session_id: 'string' } as const;

/**
 * `METHOD path` (the management API under `/_vtr/api`, the public API under `/api/v1` whatever the
 * base URL's own path) → what a 2xx answer is. `*` is one path segment. A route not listed is only
 * required to answer JSON.
 */
const ROUTES: Array<[string, AnswerShape]> = [
  ['GET /_vtr/api/sites', 'list'],
  ['POST /_vtr/api/sites', SITE],
  ['GET /_vtr/api/sites/default', SITE],
  ['GET /_vtr/api/sites/*', SITE],
  ['PATCH /_vtr/api/sites/*', SITE],
  ['DELETE /_vtr/api/sites/*', DELETED],
  ['GET /_vtr/api/sites/*/keys', SITE],
  ['POST /_vtr/api/sites/*/keys/rotate', SITE],
  ['GET /_vtr/api/sites/*/tokens', 'list'],
  ['POST /_vtr/api/sites/*/tokens', TOKEN],
  ['GET /_vtr/api/tokens', 'list'],
  ['DELETE /_vtr/api/tokens/*', TOKEN],
  ['GET /_vtr/api/sessions', 'list'],
  ['GET /_vtr/api/sessions/*', SESSION],
  ['POST /_vtr/api/sites/*/sessions', SESSION],
  ['POST /_vtr/api/sites/*/sessions/simulate', { site_id: 'string', count: 'number', sample_session_ids: 'array' }],
  ['GET /_vtr/api/sessions/*/webhook-events', 'list'],
  ['GET /_vtr/api/checks', 'list'],
  ['GET /_vtr/api/checks/*', { id: 'string', risk_level: 'string' }],
  ['GET /_vtr/api/logs', 'list'],
  ['GET /_vtr/api/notifications', 'list'],
  ['GET /_vtr/api/clock', CLOCK],
  ['POST /_vtr/api/clock/advance', CLOCK],
  ['POST /_vtr/api/clock/set', CLOCK],
  ['GET /_vtr/api/views', 'list'],
  ['GET /_vtr/api/sites/*/views', 'list'],
  ['POST /_vtr/api/sites/*/views', VIEW],
  ['GET /_vtr/api/views/*', VIEW],
  ['PATCH /_vtr/api/views/*', VIEW],
  ['DELETE /_vtr/api/views/*', DELETED],
  ['GET /_vtr/api/webhooks', 'list'],
  ['GET /_vtr/api/sites/*/webhooks', 'list'],
  ['POST /_vtr/api/sites/*/webhooks', WEBHOOK],
  ['GET /_vtr/api/webhooks/*', WEBHOOK],
  ['PATCH /_vtr/api/webhooks/*', WEBHOOK],
  ['DELETE /_vtr/api/webhooks/*', DELETED],
  ['POST /_vtr/api/webhooks/*/enable', WEBHOOK],
  ['POST /_vtr/api/webhooks/*/disable', WEBHOOK],
  ['GET /_vtr/api/webhooks/*/events', 'list'],
  ['GET /_vtr/api/webhook-events/*', EVENT],
  ['POST /_vtr/api/webhook-events/*/retry', EVENT],
  ['GET /_vtr/api/state', { tables: 'object' }],
  ['PUT /_vtr/api/state', { imported: 'boolean', tables: 'object' }],
  ['POST /_vtr/api/state/reset', { reset: 'boolean', site: 'object', access_token: 'string' }],
  ['GET /api/v1/session/*', SESSION],
  ['POST /api/v1/session/*/event', { success: 'boolean' }],
  [
    'POST /api/v1/event',
    { id: 'string', risk_level: 'string', risks: 'array', device: 'object?', ip: 'object?', email: 'object?', phone: 'object?', address: 'object?' },
  ],
];

const MATCHERS = ROUTES.map(([route, shape]) => {
  const [method, path] = route.split(' ');
  return { route, method, re: new RegExp(`^${path.replace(/\*/g, '[^/]+')}$`), shape };
});

/** The ROUTES entry `method path` (path as ROUTES writes it, no query) falls under, or null. */
export function routeOf(method: string, path: string): { route: string; shape: AnswerShape } | null {
  for (const m of MATCHERS) if (m.method === method && m.re.test(path)) return m;
  return null;
}

/** Every entry of ROUTES (a test checks each against a real emulator). */
export const LISTED_ROUTES: readonly string[] = ROUTES.map(([route]) => route);

function typeOf(v: unknown): FieldType | 'null' {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v as FieldType;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeOf(v) === 'object';

/** What is wrong with `data` for `shape` ("" when nothing is). */
function mismatch(data: unknown, shape: AnswerShape): string {
  if (shape === 'list') {
    if (!Array.isArray(data)) return `JSON ${typeOf(data)} where a list was expected`;
    return data.every(isObject) ? '' : 'a JSON list of something other than objects';
  }
  if (!isObject(data)) return `JSON ${typeOf(data)} where an object was expected`;
  for (const [name, field] of Object.entries(shape)) {
    const optional = field.endsWith('?');
    const want = (optional ? field.slice(0, -1) : field) as FieldType;
    const got = typeOf(data[name]);
    if (got === 'null' && optional) continue;
    if (got !== want) return got === 'null' ? `JSON without "${name}"` : `JSON whose "${name}" is a ${got}, not a ${want}`;
  }
  return '';
}

export interface Answer {
  /** The request's URL, without its query. */
  url: string;
  status: number;
  contentType: string;
  text: string;
}

const CODE_PHRASE = 'an error without the emulator\'s {code, message}';

/**
 * The decoded answer, or what the server said went wrong: a 2xx answer must be JSON (of `shape`, when
 * given); any other status must carry the emulator's `{code, message}`, and then comes back as
 * `{ error }` for the caller to throw as its ApiError. Anything else throws NotEmulatorError.
 */
export function decodeAnswer(a: Answer, shape: AnswerShape | null): { data: unknown } | { error: Record<string, unknown> & { code: string; message: string } } {
  const type = a.contentType.split(';')[0].trim().toLowerCase() || 'no content-type';
  let data: unknown;
  let json = false;
  try {
    data = JSON.parse(a.text);
    json = true;
  } catch {
    // not JSON: below
  }
  const fail = (what: string): never => {
    throw new NotEmulatorError(a.url, a.status, `HTTP ${a.status}, ${what}`);
  };
  if (a.status < 200 || a.status >= 300) {
    if (!json) fail(a.text ? type : 'an empty body');
    if (isObject(data) && typeof data.code === 'string' && typeof data.message === 'string') {
      return { error: data as Record<string, unknown> & { code: string; message: string } };
    }
    fail(CODE_PHRASE);
  }
  if (!json) fail(a.text ? type : 'an empty body');
  if (shape) {
    const wrong = mismatch(data, shape);
    if (wrong) fail(wrong);
  }
  return { data };
}

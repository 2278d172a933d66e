// Request plumbing shared by every route: method dispatch with 405s, bounded JSON bodies, errors.
import type { Context, Hono } from 'hono';
import { VtrError } from '../domain/errors.js';
import { decodeBody } from './body-coding.js';
import { bodyChunks, tooLarge, unreadable } from './body-chunks.js';
import { limitOf } from '../api/management/common.js';
import { unexpectedErrors } from '../logs/fault-log.js';
import { jsonAnswer } from '../domain/json-text.js';

export const MAX_BODY_BYTES = 1024 * 1024;

type Handler = (c: Context) => Response | Promise<Response>;
export type MethodHandlers = Partial<Record<'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', Handler>>;

/** Registers a path whose unknown methods answer 405 with an Allow header. */
export function route(app: Hono<any>, path: string, handlers: MethodHandlers): void {
  app.all(path, byMethod(handlers));
}

/** One path's handler: each method to its own, OPTIONS a 204 and any other a 405, with an Allow header. */
export function byMethod(handlers: MethodHandlers): Handler {
  const allow = Object.keys(handlers);
  if (handlers.GET && !handlers['HEAD' as 'GET']) allow.push('HEAD');
  const allowHeader = [...allow, 'OPTIONS'].join(', ');
  return (c) => {
    const method = c.req.method === 'HEAD' ? 'GET' : c.req.method;
    const h = handlers[method as keyof MethodHandlers];
    if (h) return h(c);
    if (c.req.method === 'OPTIONS') return c.body(null, 204, { Allow: allowHeader });
    c.header('Allow', allowHeader);
    throw new VtrError('method_not_allowed', `${c.req.method} is not allowed on ${c.req.path}; allowed: ${allowHeader}`);
  };
}

const JSON_TYPE = /^application\/([a-z0-9.+-]+\+)?json\s*(;|$)/i;

/** What the request log needs of one request, noted on the way: no second read or serialisation. */
export interface Exchange {
  /** The bytes readBody read, or null. */
  requestBody: Uint8Array | null;
  /** The body sendJson answered with; undefined when another answer was sent. */
  sentBody: string | Uint8Array | undefined;
  /** The site whose credentials the route accepted. */
  siteId: string | undefined;
}

// Carried in the request's env (what every middleware, route and the error handler share as c.env),
// for the requests the request log records (request-log.ts); none is kept for any other.
const EXCHANGE = Symbol('vtr.exchange');
type Noted = { [EXCHANGE]?: Exchange };

/** Starts noting what the request log needs: `env` (made when there is none) carries it to the routes. */
export function noteExchange(env: unknown): [Exchange, unknown] {
  const e: Exchange = { requestBody: null, sentBody: undefined, siteId: undefined };
  const carrier = (env ?? {}) as Noted;
  carrier[EXCHANGE] = e;
  return [e, carrier];
}

/** What is noted of this request, if it is logged. */
export function exchange(c: Context): Exchange | undefined {
  return (c.env as Noted | undefined)?.[EXCHANGE];
}

/** The site a public request is for, once its credentials are accepted (spares the log a lookup). */
export function noteSite(c: Context, siteId: string): void {
  const e = exchange(c);
  if (e) e.siteId = siteId;
}

/** A JSON answer (a string or bytes are JSON text already). The request log keeps what was sent. */
export function sendJson(c: Context, body: unknown, status = 200): Response {
  const payload = typeof body === 'string' || body instanceof Uint8Array ? body : jsonAnswer(body);
  const e = exchange(c);
  if (e) e.sentBody = payload;
  // A Node Buffer over a plain ArrayBuffer (never shared): the Uint8Array Hono's types ask for.
  return c.body(payload as string | Uint8Array<ArrayBuffer>, status as 200, { 'content-type': 'application/json' });
}

/** How a JSON body is read: `textPlain` also takes JSON sent as text/plain (a browser's CORS "simple" request, no preflight). */
export interface JsonBodyOptions { tooLargeMessage?: string; textPlain?: boolean }

/**
 * Reads the body as JSON: 415 for a non-JSON content type, 413 over 1 MiB (stops reading there),
 * 400 for bytes that are not UTF-8 JSON. An empty body reads as `undefined`.
 */
export async function readJson(c: Context, limit = MAX_BODY_BYTES, opts: JsonBodyOptions = {}): Promise<unknown> {
  const bytes = await readBody(c, limit, opts.tooLargeMessage);
  if (bytes === null) return undefined;
  return parseJsonText(decodeJsonText(bytes, c.req.header('content-type'), opts.textPlain));
}

const TEXT_TYPE = /^text\/plain\s*(;|$)/i;

/** A JSON request body's bytes as text: 415 for a non-JSON content type or another charset, 400 for bytes that are not UTF-8. */
export function decodeJsonText(bytes: Uint8Array, type: string | undefined, textPlain = false): string {
  refuseNonJson(type, textPlain);
  try {
    return utf8.decode(bytes);
  } catch {
    throw new VtrError('invalid_json', 'the body is not valid UTF-8');
  }
}

/** 415 for a content type other than JSON's, or a charset other than UTF-8. */
export function refuseNonJson(type: string | undefined, textPlain = false): void {
  if (type && !JSON_TYPE.test(type) && !(textPlain && TEXT_TYPE.test(type))) {
    const send = textPlain ? 'send JSON as application/json or text/plain' : 'send application/json';
    throw new VtrError('unsupported_media_type', `Content-Type ${type.slice(0, 100)} is not supported; ${send}`);
  }
  refuseCharset(type);
}

const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)/i;

/**
 * 415 for a body declared in a charset other than UTF-8 (ASCII is part of it): its bytes would be
 * read as UTF-8 and mean something else than the client sent.
 */
export function refuseCharset(type: string | undefined): void {
  const charset = type ? CHARSET.exec(type)?.[1] : undefined;
  if (charset === undefined || /^(utf-?8|us-ascii)$/i.test(charset)) return;
  throw new VtrError('unsupported_media_type', `charset ${charset.slice(0, 40)} is not supported: bodies are read as UTF-8; send UTF-8 (charset=utf-8, or no charset)`);
}

/** The body text as JSON, or a 400 naming where it stops being JSON. */
export function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    const detail = err instanceof SyntaxError ? `: ${err.message.slice(0, 200)}` : '';
    throw new VtrError('invalid_json', `the body is not valid JSON${detail}`);
  }
}

const FORM_TYPE = /^(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i;

/**
 * Reads an HTML form post (urlencoded or multipart) into its string fields (files are dropped):
 * 413 over `limit` (stops reading there), 415 for another content type, 400 for a body that is not
 * a well-formed form. Unlike c.req.parseBody() it is bounded and never throws a non-VtrError.
 */
export async function readForm(c: Context, limit = MAX_BODY_BYTES): Promise<Record<string, string>> {
  const type = c.req.header('content-type') ?? '';
  const bytes = await readBody(c, limit);
  if (bytes === null) return {};
  if (!FORM_TYPE.test(type)) {
    throw new VtrError('unsupported_media_type', `Content-Type ${type.slice(0, 100) || '(none)'} is not a form; send application/x-www-form-urlencoded or multipart/form-data`);
  }
  const out: Record<string, string> = {};
  try {
    if (/^application\/x-www-form-urlencoded/i.test(type)) {
      for (const [k, v] of new URLSearchParams(Buffer.from(bytes).toString('utf8'))) out[k] = v;
    } else {
      const form = await new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { 'content-type': type } }).formData();
      form.forEach((v, k) => {
        if (typeof v === 'string') out[k] = v;
      });
    }
  } catch {
    throw new VtrError('invalid_request', 'the form body is malformed');
  }
  return out;
}

/** Like readJson, but the body must be a JSON object (an empty body reads as {}). */
export async function readJsonObject(c: Context, limit?: number, opts?: JsonBodyOptions): Promise<Record<string, unknown>> {
  return asObject(await readJson(c, limit, opts));
}

/**
 * A change's body (PATCH): as readJsonObject, but an empty body is a 400: a request whose body was
 * forgotten would be a 200 that changes nothing. `{}` is sent on purpose, and stays that 200.
 */
export async function readChange(c: Context, example: string): Promise<Record<string, unknown>> {
  const body = await readJson(c);
  if (body === undefined) throw new VtrError('invalid_request', `body: empty: send the fields to change as a JSON object, e.g. ${example}`, { field: 'body' });
  return asObject(body);
}

// What a body that is not an object is, in the words of JSON; an object wrapped in a list says so.
function jsonKind(body: unknown): string {
  if (body === null) return 'null';
  if (!Array.isArray(body)) return `a ${typeof body}`;
  const wrapped = body.length === 1 && body[0] !== null && typeof body[0] === 'object' && !Array.isArray(body[0]);
  return wrapped ? 'an array: send the object itself, without [ ]' : 'an array';
}

/** A parsed body as an object: an empty body (undefined) reads as {}, anything else is a 400. */
export function asObject(body: unknown): Record<string, unknown> {
  if (body === undefined) return {};
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new VtrError('invalid_request', `the body must be a JSON object, not ${jsonKind(body)}`);
  }
  return body as Record<string, unknown>;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The one reader of request bodies: the bytes, at most `limit` (413 beyond, `tooLargeMessage`
 * naming the limit), or null when there is none. It reads the web Request, so it is the same under
 * the node listener and app.request(). A declared length within the limit is read whole in one
 * call (@hono/node-server reads the socket directly for it); a body of unknown length (chunked)
 * is streamed and cut at the limit.
 */
export async function readBody(c: Context, limit = MAX_BODY_BYTES, tooLargeMessage = `the body is larger than ${Math.round(limit / 1024)} KiB`): Promise<Uint8Array | null> {
  const declared = c.req.header('content-length');
  if (declared !== undefined && Number(declared) > limit) throw tooLarge(c, tooLargeMessage, Number(declared));
  const bytes = declared !== undefined && c.req.header('transfer-encoding') === undefined
    ? await readDeclared(c)
    : await readStream(c, limit, tooLargeMessage);
  if (bytes === null || bytes.byteLength === 0) return null;
  // In process nothing holds a body to its declared length.
  if (bytes.byteLength > limit) throw tooLarge(c, tooLargeMessage);
  const decoded = decodeBody(bytes, c.req.header('content-encoding'), limit, () => tooLarge(c, tooLargeMessage, 0)); // read whole: the connection stays usable
  const e = exchange(c);
  if (e) e.requestBody = decoded;
  return decoded.byteLength === 0 ? null : decoded;
}

async function readDeclared(c: Context): Promise<Uint8Array | null> {
  if (Number(c.req.header('content-length')) === 0) return null;
  try {
    return Buffer.from(await c.req.raw.arrayBuffer());
  } catch {
    throw unreadable();
  }
}

async function readStream(c: Context, limit: number, tooLargeMessage: string): Promise<Uint8Array | null> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of bodyChunks(c, limit, () => tooLarge(c, tooLargeMessage))) {
    chunks.push(chunk);
    size += chunk.byteLength;
  }
  return size === 0 ? null : Buffer.concat(chunks, size);
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The bearer token of an Authorization header, or null. */
export function bearerOf(header: string | null | undefined): string | null {
  if (!header) return null;
  const m = BEARER.exec(header);
  return m ? m[1] : null;
}

/** The bearer token of the request, or null. */
export function bearer(c: Context): string | null {
  return bearerOf(c.req.header('authorization'));
}

/** Any thrown value as the contract's error JSON and its status. Never a 5xx for a client's mistake. */
export function errorPayload(err: unknown): { status: number; body: Record<string, unknown> } {
  if (err instanceof VtrError) return { status: err.status, body: err.toJSON() };
  if (err instanceof Error && 'status' in err && typeof (err as { status: unknown }).status === 'number') {
    const status = (err as unknown as { status: number }).status;
    if (status === 413) return { status, body: { code: 'payload_too_large', message: 'the body is too large' } };
    if (status >= 400 && status < 500) return { status, body: { code: 'invalid_request', message: err.message } };
  }
  unexpectedErrors.report(err); // its stack once per distinct error, not once per request
  return { status: 500, body: { code: 'internal_error', message: 'the emulator hit an unexpected error; see its log' } };
}

/** errorPayload as a Hono response. */
export function errorResponse(c: Context, err: unknown): Response {
  const { status, body } = errorPayload(err);
  return sendJson(c, body, status);
}

/** A path parameter (always present on the routes that declare it). */
export function param(c: Context, name: string): string {
  return c.req.param(name) ?? '';
}

/** A list's `?limit=`: a whole number from 1 to 10,000, else a 400 naming `limit`. */
export function queryLimit(text: string | undefined, fallback: number): number {
  // Digits only, as the CLI's --limit: Number() alone reads 0x10 as 16 and 1e1 as 10.
  const limit = text === undefined ? fallback : limitOf(text);
  if (Number.isNaN(limit)) throw new VtrError('invalid_request', 'limit: must be a whole number from 1 to 10000', { field: 'limit' });
  return limit;
}

interface SiteLookup {
  get(siteId: string): unknown;
  defaultSite(): { site_id: string };
}

/** What names the default site wherever a site id goes: `/sites/default/views`, `?site=default`. */
export const DEFAULT_SITE = 'default';

/** A list's `?site=`: an unknown site is a 404, as on every site-scoped list. */
export function querySite(c: Context, deps: { sites: SiteLookup }): string | undefined {
  const siteId = c.req.query('site') || undefined;
  if (siteId === DEFAULT_SITE) return deps.sites.defaultSite().site_id;
  if (siteId) deps.sites.get(siteId);
  return siteId;
}

/** The path's `{site_id}`, with `default` read as the default site's id, as `/sites/default` is. */
export function siteParam(c: Context, deps: { sites: SiteLookup }): string {
  const siteId = param(c, 'site_id');
  return siteId === DEFAULT_SITE ? deps.sites.defaultSite().site_id : siteId;
}

// Request plumbing shared by every route: method dispatch with 405s, bounded JSON bodies, errors.
import type { Context, Hono } from 'hono';
import { VtrError } from '../domain/errors.js';

export const MAX_BODY_BYTES = 1024 * 1024;

type Handler = (c: Context) => Response | Promise<Response>;
export type MethodHandlers = Partial<Record<'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', Handler>>;

/** Registers a path whose unknown methods answer 405 with an Allow header. */
export function route(app: Hono<any>, path: string, handlers: MethodHandlers): void {
  const allow = Object.keys(handlers);
  if (handlers.GET && !handlers['HEAD' as 'GET']) allow.push('HEAD');
  const allowHeader = [...allow, 'OPTIONS'].join(', ');
  app.all(path, (c) => {
    const method = c.req.method === 'HEAD' ? 'GET' : c.req.method;
    const h = handlers[method as keyof MethodHandlers];
    if (h) return h(c);
    if (c.req.method === 'OPTIONS') return c.body(null, 204, { Allow: allowHeader });
    c.header('Allow', allowHeader);
    throw new VtrError('method_not_allowed', `${c.req.method} is not allowed on ${c.req.path}; allowed: ${allow.join(', ')}`);
  });
}

const JSON_TYPE = /^application\/([a-z0-9.+-]+\+)?json\s*(;|$)/i;

/**
 * Reads the body as JSON: 415 for a non-JSON content type, 413 over 1 MiB (stops reading there),
 * 400 for bytes that are not UTF-8 JSON. An empty body reads as `undefined`.
 */
export async function readJson(c: Context, limit = MAX_BODY_BYTES): Promise<unknown> {
  const type = c.req.header('content-type');
  const declared = Number(c.req.header('content-length') ?? 0);
  if (declared > limit) throw tooLarge(limit);
  const body = c.req.raw.body;
  if (!body) return undefined;
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  if (size === 0) return undefined;
  if (type && !JSON_TYPE.test(type)) {
    throw new VtrError('unsupported_media_type', `Content-Type ${type.slice(0, 100)} is not supported; send application/json`);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new VtrError('invalid_json', 'the body is not valid UTF-8');
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    const detail = err instanceof SyntaxError ? `: ${err.message.slice(0, 200)}` : '';
    throw new VtrError('invalid_json', `the body is not valid JSON${detail}`);
  }
}

/** Like readJson, but the body must be a JSON object (an empty body reads as {}). */
export async function readJsonObject(c: Context, limit?: number): Promise<Record<string, unknown>> {
  const body = await readJson(c, limit);
  if (body === undefined) return {};
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new VtrError('invalid_request', 'the body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

const tooLarge = (limit: number) => new VtrError('payload_too_large', `the body is larger than ${Math.round(limit / 1024)} KiB`);

/** The bearer token of the request, or null. */
export function bearer(c: Context): string | null {
  const h = c.req.header('authorization');
  if (!h) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  return m ? m[1] : null;
}

/** Turns any thrown value into the contract's error JSON. Never a 5xx for a client's mistake. */
export function errorResponse(c: Context, err: unknown): Response {
  if (err instanceof VtrError) {
    return c.json(err.toJSON(), err.status as 400);
  }
  if (err instanceof Error && 'status' in err && typeof (err as { status: unknown }).status === 'number') {
    const status = (err as unknown as { status: number }).status;
    if (status === 413) return c.json({ code: 'payload_too_large', message: 'the body is too large' }, 413);
    if (status >= 400 && status < 500) return c.json({ code: 'invalid_request', message: err.message }, status as 400);
  }
  console.error('vtr: unexpected error', err);
  return c.json({ code: 'internal_error', message: 'the emulator hit an unexpected error; see its log' }, 500);
}

/** A path parameter (always present on the routes that declare it). */
export function param(c: Context, name: string): string {
  return c.req.param(name) ?? '';
}

// Logs every public-API request. On the hot path it only takes a timestamp and references: the
// request text readJson already decoded, and the response's JSON string (read without a copy from
// @hono/node-server's lightweight Response, else by cloning small JSON responses).
import type { Context, MiddlewareHandler } from 'hono';
import type { RequestLogger } from '../../logs/request-logger.js';
import { MAX_LOGGED_BODY } from '../../logs/request-logger.js';
import { bearer, requestBodyText } from '../http.js';

const JSON_TYPE = /json/i;

export function requestLogMiddleware(logger: RequestLogger): MiddlewareHandler {
  return async (c, next) => {
    const atUs = logger.nowUs();
    const start = performance.now();
    await next();
    const durationMs = performance.now() - start;
    const url = c.req.url;
    const q = url.indexOf('?');
    const seen = {
      method: c.req.method,
      path: q === -1 ? c.req.path : `${c.req.path}${url.slice(q)}`,
      status: c.res.status,
      durationMs,
      atUs,
      bearer: bearer(c),
      requestBody: requestBodyText(c.req.raw),
      responseBody: null as string | null,
    };
    const body = responseText(c);
    if (typeof body === 'string' || body === null) logger.record({ ...seen, responseBody: body });
    else logger.recordLater(seen, body);
  };
}

let cacheSymbol: symbol | undefined;

/** The response body when it is JSON: a string now, a promise (clone) or null. */
function responseText(c: Context): string | Promise<string | null> | null {
  const res = c.res;
  // @hono/node-server keeps a string body as [status, body, headers] under a private symbol until
  // something needs a real Response; reading it there avoids building one just to log it. Its
  // headers are read without `res.headers`, which would turn them into a Headers object and send
  // the response down @hono/node-server's slower Headers path.
  cacheSymbol ??= Object.getOwnPropertySymbols(res).find((s) => s.description === 'cache');
  const cached = cacheSymbol ? (res as unknown as Record<symbol, unknown>)[cacheSymbol] : undefined;
  if (Array.isArray(cached) && typeof cached[1] === 'string') {
    const type = contentType(cached[2]);
    if (type !== undefined) return type && JSON_TYPE.test(type) ? cached[1] : null;
  }
  const type = res.headers.get('content-type');
  if (!type || !JSON_TYPE.test(type)) return null;
  if (Array.isArray(cached) && typeof cached[1] === 'string') return cached[1];
  const length = Number(res.headers.get('content-length') ?? NaN);
  if (!res.body || length > MAX_LOGGED_BODY * 4) return null;
  return res.clone().text();
}

/** The content type in a plain header record (null when absent), or undefined for any other shape. */
function contentType(headers: unknown): string | null | undefined {
  if (!headers || typeof headers !== 'object' || headers instanceof Headers || Array.isArray(headers)) return undefined;
  for (const k in headers) {
    if (k.length === 12 && k.toLowerCase() === 'content-type') {
      const v = (headers as Record<string, unknown>)[k];
      return typeof v === 'string' ? v : undefined;
    }
  }
  return null;
}

// Logs every public-API request. On the hot path it only takes a timestamp and references: the
// request bytes the body reader kept and the body sendJson sent. Any other JSON answer (the
// OpenAPI document) is read from a clone of the Response.
import type { Context, MiddlewareHandler } from 'hono';
import type { RequestLogger, RequestSeen } from '../../logs/request-logger.js';
import { MAX_LOGGED_BODY } from '../../logs/request-logger.js';
import { bearer, requestBody, sentBody } from '../http.js';

declare module 'hono' {
  interface ContextVariableMap {
    /** The site a public request was for, once its credentials are checked (spares the log a lookup). */
    siteId: string;
  }
}

const JSON_TYPE = /json/i;

export function requestLogMiddleware(logger: RequestLogger): MiddlewareHandler {
  return async (c, next) => {
    const atUs = logger.nowUs();
    const start = performance.now();
    await next();
    const durationMs = performance.now() - start;
    const url = c.req.url;
    const q = url.indexOf('?');
    const siteId = c.get('siteId');
    const seen: RequestSeen = {
      method: c.req.method,
      path: q === -1 ? c.req.path : `${c.req.path}${url.slice(q)}`,
      status: c.res.status,
      durationMs,
      atUs,
      // Only needed to find the site when the route did not say.
      bearer: siteId === undefined ? bearer(c) : null,
      requestBody: requestBody(c.req.raw),
      responseBody: null,
      siteId,
    };
    const body = responseBody(c);
    if (body === null || typeof body === 'string' || body instanceof Uint8Array) {
      seen.responseBody = body;
      logger.record(seen);
    } else logger.recordLater(seen, body);
  };
}

/** The response body when it is JSON: as sent, a promise (clone) or null. */
function responseBody(c: Context): string | Uint8Array | Promise<string | null> | null {
  const sent = sentBody(c.req.raw);
  if (sent !== undefined) return sent;
  const res = c.res;
  const type = res.headers.get('content-type');
  if (!type || !JSON_TYPE.test(type)) return null;
  const length = Number(res.headers.get('content-length') ?? NaN);
  if (!res.body || length > MAX_LOGGED_BODY * 4) return null;
  return res.clone().text();
}

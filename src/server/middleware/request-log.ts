// Logs every public-API request (`/api/v1` and below: 404s, 405s and 429s included). On the hot path
// it only takes a timestamp and references: the request bytes the body reader kept and the body
// sendJson sent (http.ts#exchange). Any other JSON answer (the OpenAPI document) is read from a
// clone of the Response.
import type { Context, MiddlewareHandler } from 'hono';
import type { RequestLogger, RequestSeen } from '../../logs/request-logger.js';
import { MAX_LOGGED_BODY } from '../../logs/request-logger.js';
import { unexpectedErrors } from '../../logs/fault-log.js';
import { bearer, exchange } from '../http.js';
import { realTimers } from '../../domain/timers.js';
import { sentMethod } from '../head.js';

const JSON_TYPE = /json/i;

export function requestLogMiddleware(logger: RequestLogger): MiddlewareHandler {
  return async (c, next) => {
    const atUs = logger.nowUs();
    const start = realTimers.monotonic();
    await next();
    try {
      record(logger, c, atUs, realTimers.monotonic() - start);
    } catch (err) {
      unexpectedErrors.report(err); // the log is diagnostics: the answer goes out all the same
    }
  };
}

function record(logger: RequestLogger, c: Context, atUs: number, durationMs: number): void {
  const { raw: request, path } = c.req;
  const res = c.res;
  const url = request.url;
  const q = url.indexOf('?');
  const noted = exchange(c);
  const siteId = noted?.siteId;
  const seen: RequestSeen = {
    method: sentMethod(request),
    path: q === -1 ? path : `${path}${url.slice(q)}`,
    status: res.status,
    durationMs,
    atUs,
    // Only needed to find the site when the route did not say.
    bearer: siteId === undefined ? bearer(c) : null,
    requestBody: noted?.requestBody ?? null,
    responseBody: null,
    siteId,
  };
  const body = noted?.sentBody ?? responseBody(res);
  // isView, not instanceof: a jsdom test environment puts another realm's Uint8Array in the global.
  if (body === null || typeof body === 'string' || ArrayBuffer.isView(body)) {
    seen.responseBody = body;
    logger.record(seen);
  } else logger.recordLater(seen, body);
}

/** A JSON answer sendJson did not make: its text (from a clone), or null. */
function responseBody(res: Response): Promise<string | null> | null {
  const type = res.headers.get('content-type');
  if (!type || !JSON_TYPE.test(type)) return null;
  const length = Number(res.headers.get('content-length') ?? NaN);
  if (!res.body || length > MAX_LOGGED_BODY * 4) return null;
  return res.clone().text();
}

// Logs every public-API request (`/api/v1` and below: 404s, 405s and 429s included), around the
// app's one entry rather than as a middleware: a route that answers at once (a GET of a session)
// then runs as Hono's single handler, with no async chain of middlewares built for each request.
// On the way it only takes a timestamp and references: the request bytes the body reader kept and
// the body sendJson sent (http.ts#exchange). Any other JSON answer (the OpenAPI document) is read
// from a clone of the Response.
import type { Hono } from 'hono';
import type { RequestLogger, RequestSeen } from '../logs/request-logger.js';
import { MAX_LOGGED_BODY } from '../logs/request-logger.js';
import { unexpectedErrors } from '../logs/fault-log.js';
import { bearerOf, noteExchange, type Exchange } from './http.js';
import { realTimers } from '../domain/timers.js';
import { sentMethod } from './head.js';

type Fetch = Hono['fetch'];
const JSON_TYPE = /json/i;

/** Whether a request on `path` (as the app routes it) is the public API's, and so logged. */
export const isPublicPath = (path: string): boolean => path.startsWith('/api/v1') && (path.length === 7 || path.charCodeAt(7) === 47);

/** `fetch` with each public-API request recorded once its answer is made. `pathOf`: the path as the app reads it. */
export function withRequestLog(fetch: Fetch, logger: RequestLogger, pathOf: (request: Request) => string): Fetch {
  return (request, env, ctx) => {
    const path = pathOf(request);
    if (!isPublicPath(path)) return fetch(request, env, ctx);
    const atUs = logger.nowUs();
    const start = realTimers.monotonic();
    const [noted, carrier] = noteExchange(env);
    const done = (res: Response): Response => {
      try {
        record(logger, request, path, res, noted, atUs, realTimers.monotonic() - start);
      } catch (err) {
        unexpectedErrors.report(err); // the log is diagnostics: the answer goes out all the same
      }
      return res;
    };
    const res = fetch(request, carrier, ctx);
    return res instanceof Promise ? res.then(done) : done(res);
  };
}

function record(logger: RequestLogger, request: Request, path: string, res: Response, noted: Exchange, atUs: number, durationMs: number): void {
  const url = request.url;
  const q = url.indexOf('?');
  const siteId = noted.siteId;
  const seen: RequestSeen = {
    method: sentMethod(request),
    path: q === -1 ? path : `${path}${url.slice(q)}`,
    status: res.status,
    durationMs,
    atUs,
    // Only needed to find the site when the route did not say.
    bearer: siteId === undefined ? bearerOf(request.headers.get('authorization')) : null,
    requestBody: noted.requestBody,
    responseBody: null,
    siteId,
  };
  const body = noted.sentBody ?? responseBody(res);
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

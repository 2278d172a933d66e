// A direct node:http answer for the hottest public read, `GET /api/v1/session/{id}`, when it
// succeeds. Anything else — a bad token, an unknown session, a query string, rate limiting — falls
// through to the Hono app, which owns every error rule; this path only skips the framework for
// the common 200, with the same services, the same body and the same request log entry.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppDeps } from './deps.js';

const PREFIX = '/api/v1/session/';
const BEARER = /^Bearer\s+(\S+)\s*$/i;

export function fastSessionGet(deps: AppDeps): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    if (req.method !== 'GET' || deps.config.rateLimit) return false;
    const url = req.url ?? '';
    if (!url.startsWith(PREFIX)) return false;
    const id = url.slice(PREFIX.length);
    // Only plain ids: anything encoded, nested or with a query takes the full path.
    if (!/^[A-Za-z0-9_-]{1,100}$/.test(id)) return false;
    const m = BEARER.exec(req.headers.authorization ?? '');
    if (!m) return false;
    const atUs = deps.requestLog?.nowUs() ?? 0;
    const start = performance.now();
    const siteId = deps.sites.siteIdForToken(m[1]);
    if (!siteId) return false;
    const rec = deps.store.sessions.get(id);
    if (!rec || rec.session.site_id !== siteId) return false;
    const body = JSON.stringify(rec.session);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
    deps.requestLog?.record({ method: 'GET', path: url, status: 200, durationMs: performance.now() - start, atUs, bearer: m[1], requestBody: null, responseBody: body });
    return true;
  };
}

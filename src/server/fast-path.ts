// A direct node:http answer for the three hot public routes — GET /api/v1/session/{id},
// POST /api/v1/session/{id}/event and POST /api/v1/event — without the framework's per-request
// web Request/Response objects. Their rules live in public-api.ts, shared with the Hono routes, and
// errors go through the same errorPayload. Whatever this path does not take as it is (another
// method, a query string, an encoded or nested id, a body without a Content-Length or over the
// limit, rate limiting) goes to the Hono app before a byte of it is read.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppDeps } from './deps.js';
import { createPublicApi } from './public-api.js';
import { createGroupCommit, type Outcome } from './group-commit.js';
import { MAX_BODY_BYTES, asObject, bearerOf, decodeJsonText, errorPayload, parseJsonText } from './http.js';

const SESSION = '/api/v1/session/';
const EVENT_SUFFIX = '/event';
const CHECK = '/api/v1/event';
const PLAIN_ID = /^[A-Za-z0-9_-]{1,100}$/;

type Handler = (req: IncomingMessage, res: ServerResponse) => boolean;

/** What the request log needs beyond the answer. */
interface Seen {
  method: string;
  url: string;
  atUs: number;
  start: number;
  requestBody: Uint8Array | null;
  /** Known once the credentials are checked; spares the request log looking it up again. */
  siteId?: string;
}

export function createFastPath(deps: AppDeps): Handler {
  const api = createPublicApi(deps);
  const log = deps.requestLog;

  const group = createGroupCommit(deps.store);

  function answer(req: IncomingMessage, res: ServerResponse, seen: Seen, run: () => unknown): void {
    let outcome: Outcome;
    try {
      outcome = { ok: true, value: run() };
    } catch (error) {
      outcome = { ok: false, error };
    }
    send(req, res, seen, outcome);
  }

  /**
   * A run's value is sent as JSON; a string is JSON text already (a session read as SQLite built
   * it), a Buffer its UTF-8 (a check's answer, assembled as bytes).
   */
  function send(req: IncomingMessage, res: ServerResponse, seen: Seen, outcome: Outcome): void {
    let status = 200;
    let bytes: Buffer;
    if (outcome.ok) {
      const v = outcome.value;
      bytes = Buffer.isBuffer(v) ? v : Buffer.from(typeof v === 'string' ? v : JSON.stringify(v));
    } else {
      const e = errorPayload(outcome.error);
      status = e.status;
      bytes = Buffer.from(JSON.stringify(e.body));
    }
    // Encoded once: sent as these bytes, and the request log copies them.
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': bytes.length });
    res.end(bytes);
    log?.record({
      method: seen.method, path: seen.url, status, durationMs: performance.now() - seen.start, atUs: seen.atUs,
      bearer: bearerOf(req.headers.authorization), requestBody: seen.requestBody, responseBody: bytes, siteId: seen.siteId,
    });
  }

  /** Reads a body of a known length, then answers with `run(body)`, committed with this turn's group. */
  function withBody(req: IncomingMessage, res: ServerResponse, seen: Seen, run: (body: () => Record<string, unknown>) => unknown): void {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      chunks.push(chunk);
    });
    req.once('end', () => {
      const bytes = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size);
      // Parsed on demand, so an authorization error comes first (as on the app route).
      const body = (): Record<string, unknown> => {
        if (size === 0) return {};
        const text = decodeJsonText(bytes, req.headers['content-type']);
        seen.requestBody = bytes; // the request log copies it when it records the answer (this turn)
        return asObject(parseJsonText(text));
      };
      group.add(() => run(body), (outcome) => send(req, res, seen, outcome));
    });
    // A client gone mid-body: nothing to answer; node closes the socket.
    req.once('error', () => res.destroy());
  }

  return (req, res) => {
    if (deps.config.rateLimit) return false;
    const url = req.url ?? '';
    const method = req.method ?? '';
    if (method === 'GET') {
      if (!url.startsWith(SESSION)) return false;
      const id = url.slice(SESSION.length);
      if (!PLAIN_ID.test(id)) return false;
      const seen: Seen = { method, url, atUs: log?.nowUs() ?? 0, start: performance.now(), requestBody: null };
      answer(req, res, seen, () => api.getSession((seen.siteId = api.authorize(req.headers.authorization)), id));
      return true;
    }
    if (method !== 'POST') return false;
    // Only a body whose length is declared and allowed; the app route owns chunked bodies and 413s.
    const length = Number(req.headers['content-length']);
    if (!(length >= 0 && length <= MAX_BODY_BYTES) || req.headers['transfer-encoding'] !== undefined) return false;
    const seen = (): Seen => ({ method, url, atUs: log?.nowUs() ?? 0, start: performance.now(), requestBody: null });
    if (url === CHECK) {
      const s = seen();
      withBody(req, res, s, (body) => {
        const { siteId, result } = api.check(body());
        s.siteId = siteId;
        return result;
      });
      return true;
    }
    if (url.startsWith(SESSION) && url.endsWith(EVENT_SUFFIX)) {
      const id = url.slice(SESSION.length, -EVENT_SUFFIX.length);
      if (!PLAIN_ID.test(id)) return false;
      const s = seen();
      withBody(req, res, s, (body) => api.addEvent((s.siteId = api.authorize(req.headers.authorization)), id, body()));
      return true;
    }
    return false;
  };
}

// HEAD answers with the headers the GET would send, Content-Length included (RFC 9110 §9.3.2).
// Hono answers a HEAD from the GET route but drops the body before anyone can measure it, so the
// app's entry sends a HEAD on as a GET and measures the body here. Only HEADs take this path.
import type { Hono } from 'hono';

// The GETs made of a HEAD: the request log still records them as HEAD.
const fromHead = new WeakSet<Request>();

/** The method the client sent: HEAD for a HEAD answered as its GET. */
export function sentMethod(request: Request): string {
  return fromHead.has(request) ? 'HEAD' : request.method;
}

type Fetch = Hono['fetch'];

/** `fetch` with HEAD answered as its GET without the body. */
export function withHeadLengths(fetch: Fetch): Fetch {
  return (request, env, ctx) => (request.method === 'HEAD' ? head(fetch, request, env, ctx) : fetch(request, env, ctx));
}

async function head(fetch: Fetch, request: Request, env: Parameters<Fetch>[1], ctx: Parameters<Fetch>[2]): Promise<Response> {
  const get = new Request(request.url, { method: 'GET', headers: request.headers, signal: request.signal });
  fromHead.add(get);
  const res = await fetch(get, env, ctx);
  const headers = new Headers(res.headers);
  if (res.body) {
    // An event stream has no length: it is closed unread.
    if (headers.has('content-length') || /^text\/event-stream/i.test(headers.get('content-type') ?? '')) await res.body.cancel();
    else headers.set('content-length', String((await res.arrayBuffer()).byteLength));
  }
  return new Response(null, { status: res.status, statusText: res.statusText, headers });
}

// The public API (api/routes.ts) and the management API (api/management/) are mounted from their
// declarations: each route object gives the method, the path, and the schemas of the path and the
// query; a declared path answers its other methods with a 405 naming the ones it has
// (http.ts#route). The body is validated by the handler, after authentication, with the schema the
// route declares (bodySchema): a bad token is a 401 before a bad body is a 400, and the check's
// credential comes from the body itself. It is read by readBody (1 MiB, 413, the bytes kept for
// the request log), and one sent without a Content-Type is read as JSON (README "Decisions").
// @hono/zod-openapi's app.openapi would do the same registration, but its body validator answers
// those cases itself, and loading it with the server costs every start the OpenAPI generator, which
// loads with the first request for the document instead.
import type { RouteConfig } from '@hono/zod-openapi';
import type { Context, Hono } from 'hono';
import { shownId, VtrError } from '../domain/errors.js';
import { byMethod, type MethodHandlers } from './http.js';
import { validate } from './validate.js';

type Handler = (c: Context) => Response | Promise<Response>;

/** Mounts declared routes with their handlers. Every route of one path goes in the same call. */
export function mount(app: Hono, routes: Array<[RouteConfig, Handler]>): void {
  const paths = new Map<string, MethodHandlers>();
  for (const [declared, handler] of routes) {
    const { params, query } = declared.request ?? {};
    const handlers = paths.get(declared.path) ?? {};
    // The path's values, then the query's, are checked before the handler runs (a 400 naming the field).
    const known = declared.method === 'get' && declared.path.startsWith('/_vtr/api/') ? knownQuery(declared) : null;
    handlers[declared.method.toUpperCase() as keyof MethodHandlers] = params || query || known
      ? (c) => {
          if (query || known) refuseBadEncoding(c);
          if (known) refuseUnknownQuery(c, known, declared.path);
          if (params) validate(params, c.req.param());
          if (query) validate(query, c.req.query());
          return handler(c);
        }
      : handler;
    paths.set(declared.path, handlers);
  }
  // A literal path beside a parameter one (`/sites/default` beside `/sites/{site_id}`) is answered
  // from the parameter path's registration: Hono's RegExpRouter refuses the two side by side, and
  // the app would fall back to its TrieRouter for every request (~3 µs each, docs/performance.md).
  const all = [...paths.keys()];
  for (const [path, handlers] of paths) {
    if (all.some((p) => shapeOf(path, p))) continue; // answered by that parameter path
    const answer = byMethod(handlers);
    const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    const special = all.flatMap((l) => {
      const values = shapeOf(l, path);
      return values ? [{ values, handlers: paths.get(l)!, answer: byMethod(paths.get(l)!) }] : [];
    });
    app.all(path.replaceAll(/\{(\w+)\}/g, ':$1'), special.length === 0 ? answer : (c) => {
      const found = special.find((s) => names.every((n, i) => c.req.param(n) === s.values[i]));
      // The literal answers the methods it declares; the others are the parameter path's, whose
      // handlers read the literal as they read an id (`PATCH /sites/default`: http.ts#siteParam).
      const method = c.req.method === 'HEAD' ? 'GET' : c.req.method;
      return (found && found.handlers[method as keyof MethodHandlers] ? found.answer : answer)(c);
    });
  }
}

/** The query parameters a management read declares. */
function knownQuery(declared: RouteConfig): string[] {
  const shape = (declared.request?.query as { shape?: Record<string, unknown> } | undefined)?.shape;
  return Object.keys(shape ?? {});
}

/**
 * A management read given a query parameter it does not take is a 400 naming it: a typo
 * (`?filter=` for `?where=`) would otherwise list everything. The admin token may come in the
 * query on every path (app.ts).
 */
function refuseUnknownQuery(c: Context, known: string[], path: string): void {
  const all = c.req.queries();
  const unknown = Object.keys(all).find((k) => k !== 'admin_token' && !known.includes(k));
  if (unknown !== undefined) {
    const takes = known.length ? `takes ${known.join(', ')}` : 'takes no query parameters';
    throw new VtrError('invalid_request', `${shownId(unknown)}: unknown query parameter; GET ${path} ${takes}`, { field: unknown.slice(0, 100) });
  }
  // Only the first of two values would be read, and which one the caller meant is anyone's guess.
  const twice = known.find((k) => (all[k]?.length ?? 0) > 1);
  if (twice !== undefined) {
    throw new VtrError('invalid_request', `${twice}: given ${all[twice].length} times; GET ${path} takes one value for each query parameter (${twice}=<value> once)`, { field: twice });
  }
}

/**
 * A query value whose percent-escapes are not UTF-8 (`?where=%FF`, a lone `%`) is a 400 naming its
 * parameter: it would otherwise be read with the `%` left in, and a filter would blame that `%`.
 */
function refuseBadEncoding(c: Context): void {
  const url = c.req.url;
  const start = url.indexOf('?');
  if (start < 0 || !url.includes('%', start)) return;
  for (const pair of url.slice(start + 1).split('&')) {
    const eq = pair.indexOf('=');
    const key = eq < 0 ? pair : pair.slice(0, eq);
    if (decodes(pair.replaceAll('+', ' '))) continue;
    const name = decodes(key) ? decodeURIComponent(key) : key;
    throw new VtrError(
      'invalid_request',
      `${shownId(name)}: bad URL encoding (a % must start an escape of UTF-8 bytes, as %C3%A9 for é or %25 for %); percent-encode the value's UTF-8 bytes (encodeURIComponent, curl -G --data-urlencode)`,
      { field: name.slice(0, 100) },
    );
  }
}

function decodes(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

/** The values `literal` gives the parameters of `pattern` when it has the same shape, else null. */
function shapeOf(literal: string, pattern: string): string[] | null {
  if (literal.includes('{') || !pattern.includes('{')) return null;
  const a = literal.split('/');
  const b = pattern.split('/');
  if (a.length !== b.length) return null;
  const values: string[] = [];
  for (let i = 0; i < a.length; i++) {
    if (/^\{\w+\}$/.test(b[i])) values.push(a[i]);
    else if (a[i] !== b[i]) return null;
  }
  return values;
}

type JsonBodyRoute = { request: { body: { content: { 'application/json': { schema: unknown } } } } };

/** The JSON body schema a route declares. */
export function bodySchema<R extends JsonBodyRoute>(route: R): R['request']['body']['content']['application/json']['schema'] {
  return route.request.body.content['application/json'].schema;
}

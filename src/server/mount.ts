// The public API is mounted from its declarations in api/routes.ts: `app.openapi` takes the method,
// the path and the path's schema from the route object, and a declared path answers its other
// methods with a 405 naming the ones it has. The body is left out of what the library validates, on
// purpose: it is read by readBody (1 MiB, 413, the bytes kept for the request log), a body sent with
// no Content-Type is read as JSON (README "Decisions"), a bad token is a 401 before a bad body is a
// 400, and the check's credential comes from the body itself. So the body is validated after
// authentication, with the schema the route declares (bodySchema).
import type { OpenAPIHono, RouteConfig } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { otherMethods } from './http.js';

type Handler = (c: Context) => Response | Promise<Response>;

/** Mounts declared routes with their handlers. Every route of one path goes in the same call. */
export function mount(app: OpenAPIHono, routes: Array<[RouteConfig, Handler]>): void {
  const methods = new Map<string, string[]>();
  for (const [{ request, ...route }, handler] of routes) {
    // Declared for the document already (api/document.ts); only the path's schema is checked here.
    app.openapi({ ...route, request: { params: request?.params }, hide: true }, handler);
    methods.set(route.path, [...(methods.get(route.path) ?? []), route.method.toUpperCase()]);
  }
  for (const [path, allowed] of methods) app.all(path.replaceAll(/\{(\w+)\}/g, ':$1'), otherMethods(allowed));
}

type JsonBodyRoute = { request: { body: { content: { 'application/json': { schema: unknown } } } } };

/** The JSON body schema a route declares. */
export function bodySchema<R extends JsonBodyRoute>(route: R): R['request']['body']['content']['application/json']['schema'] {
  return route.request.body.content['application/json'].schema;
}

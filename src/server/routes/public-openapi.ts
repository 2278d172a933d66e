// The OpenAPI 3.1 document of the public and management APIs, at GET /api/v1/openapi.json (no
// credentials needed) and GET /_vtr/api/openapi.json (behind the management API's guard).
import type { Context, Hono } from 'hono';
import { route } from '../http.js';

export function publicOpenApiRoutes(app: Hono): void {
  let doc: string | null = null; // built once: it never changes while the server runs
  const serve = {
    GET: async (c: Context) => {
      // The generator loads with the first request for the document, not with the server.
      doc ??= JSON.stringify((await import('../../api/document.js')).openApiDocument());
      return c.body(doc, 200, { 'content-type': 'application/json; charset=UTF-8' });
    },
  };
  route(app, '/api/v1/openapi.json', serve);
  route(app, '/_vtr/api/openapi.json', serve);
}

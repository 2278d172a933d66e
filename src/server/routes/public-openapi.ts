// GET /api/v1/openapi.json: the public API's OpenAPI 3.1 document (no credentials needed).
import type { Hono } from 'hono';
import { route } from '../http.js';

export function publicOpenApiRoutes(app: Hono): void {
  let doc: string | null = null; // built once: it never changes while the server runs
  route(app, '/api/v1/openapi.json', {
    GET: async (c) => {
      // The generator loads with the first request for the document, not with the server.
      doc ??= JSON.stringify((await import('../../api/document.js')).openApiDocument());
      return c.body(doc, 200, { 'content-type': 'application/json; charset=UTF-8' });
    },
  });
}

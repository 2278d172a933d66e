// GET /api/v1/openapi.json: the public API's OpenAPI 3.1 document (no credentials needed).
import type { Hono } from 'hono';
import { openApiDocument } from '../../api/document.js';
import { route } from '../http.js';

export function publicOpenApiRoutes(app: Hono): void {
  let doc: string | null = null; // built once: it never changes while the server runs
  route(app, '/api/v1/openapi.json', {
    GET: (c) => {
      doc ??= JSON.stringify(openApiDocument());
      return c.body(doc, 200, { 'content-type': 'application/json; charset=UTF-8' });
    },
  });
}

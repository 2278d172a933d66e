// The OpenAPI 3.1 document of the public API (`vtr openapi`, GET /api/v1/openapi.json), generated
// from the route declarations in routes.ts: what is documented is what the server validates.
import { OpenAPIHono, type RouteConfig } from '@hono/zod-openapi';
import { VERSION } from '../version.js';
import { PUBLIC_ROUTES } from './routes.js';

/** Where the public API lives; the document's paths are relative to it (its `servers` entry). */
export const PUBLIC_BASE = '/api/v1';

export interface OpenApiOptions {
  /** The public API base; default `/api/v1` (relative to where the document is served). */
  serverUrl?: string;
}

export function openApiDocument(opts: OpenApiOptions = {}): Record<string, unknown> {
  // An app for its registry only: the routes are registered as declarations, no handler is mounted.
  const docs = new OpenAPIHono();
  const registry = docs.openAPIRegistry;
  registry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'An access token of the site (`vtr tokens create`), or the site\'s secret key (`vtr keys show`), as clients written for the hosted service send it',
  });
  // Schemas become components by their `.meta({ id })` when a route uses them (registry.register
  // would need zod extended with .openapi() before the schemas were made: load order).
  for (const route of PUBLIC_ROUTES as readonly RouteConfig[]) registry.registerPath({ ...route, path: route.path.slice(PUBLIC_BASE.length) });
  const doc = docs.getOpenAPI31Document({
    openapi: '3.1.0',
    info: {
      title: 'vtr — visitor-traffic risk service (public API)',
      version: VERSION,
      description: 'Sessions, custom events and visitor checks. Every error answer is {"code", "message"}.',
    },
    servers: [{ url: opts.serverUrl ?? PUBLIC_BASE }],
    security: [{ bearerAuth: [] }],
  });
  const out = JSON.parse(JSON.stringify(doc)) as Record<string, unknown> & { components: Record<string, object> };
  // Sections the generator always writes, empty here.
  if (Object.keys(out.webhooks ?? {}).length === 0) delete out.webhooks;
  if (Object.keys(out.components.parameters ?? {}).length === 0) delete out.components.parameters;
  return out;
}

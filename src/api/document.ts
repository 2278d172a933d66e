// The OpenAPI 3.1 document of vtr's HTTP API (`vtr openapi`, GET /api/v1/openapi.json, GET
// /_vtr/api/openapi.json), generated from the route declarations (routes.ts, management/): what is
// documented is what the server validates. The public API's paths are relative to its server,
// `/api/v1`, as the hosted service documents them; the management API's are full paths
// (`/_vtr/api/...`), each with a path-level server at the root.
import { OpenAPIHono, type RouteConfig } from '@hono/zod-openapi';
import { VERSION } from '../version.js';
import { MANAGEMENT_ROUTES } from './management/index.js';
import { MANAGEMENT_TAG } from './management/common.js';
import { PUBLIC_ROUTES } from './routes.js';

/** Where the public API lives; the document's public paths are relative to it (its `servers` entry). */
export const PUBLIC_BASE = '/api/v1';

export interface OpenApiOptions {
  /** The public API base; default `/api/v1` (relative to where the document is served). */
  serverUrl?: string;
}

const ADMIN_TOKEN = [
  'The management API and the console need a credential only when the emulator was started with `vtr serve --admin-token`',
  '(or VTR_ADMIN_TOKEN): then `Authorization: Bearer <admin token>` (the `admin_token` query parameter and the console\'s',
  '`vtr_admin` cookie are accepted too). Without one, no credential is needed and the emulator answers only to loopback',
  'Host names (localhost, 127.0.0.1, [::1]). Changes sent by another web page (Origin, Sec-Fetch-Site) are refused either way.',
].join(' ');

export function openApiDocument(opts: OpenApiOptions = {}): Record<string, unknown> {
  const serverUrl = opts.serverUrl ?? PUBLIC_BASE;
  // The management API's paths are full: its server is the root where the public API's base is.
  const root = /^https?:\/\//.test(serverUrl) ? new URL(serverUrl).origin : '/';
  // An app for its registry only: the routes are registered as declarations, no handler is mounted.
  const docs = new OpenAPIHono();
  const registry = docs.openAPIRegistry;
  registry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'An access token of the site (`vtr tokens create`), or the site\'s secret key (`vtr keys show`), as clients written for the hosted service send it',
  });
  registry.registerComponent('securitySchemes', 'adminToken', { type: 'http', scheme: 'bearer', description: ADMIN_TOKEN });
  // Schemas become components by their `.meta({ id })` when a route uses them (registry.register
  // would need zod extended with .openapi() before the schemas were made: load order).
  for (const route of PUBLIC_ROUTES as readonly RouteConfig[]) registry.registerPath({ ...route, path: route.path.slice(PUBLIC_BASE.length) });
  for (const route of MANAGEMENT_ROUTES as readonly RouteConfig[]) registry.registerPath(route);
  const doc = docs.getOpenAPI31Document({
    openapi: '3.1.0',
    info: {
      title: 'vtr — visitor-traffic risk service',
      version: VERSION,
      description: 'The public API (sessions, custom events and visitor checks, under `/api/v1`) and the emulator\'s management API (`/_vtr/api`, tagged `management`). Every error answer is {"code", "message"}.',
    },
    servers: [{ url: serverUrl }],
    security: [{ bearerAuth: [] }],
    tags: [{ name: MANAGEMENT_TAG, description: `The emulator's own API: sites, keys, tokens, sessions, checks, saved views, rules, webhooks, the clock, the request log and the state. ${ADMIN_TOKEN}` }],
  });
  const out = JSON.parse(JSON.stringify(doc)) as Record<string, unknown> & { components: Record<string, object>; paths: Record<string, Record<string, unknown>> };
  for (const path of new Set(MANAGEMENT_ROUTES.map((r) => r.path))) out.paths[path] = { servers: [{ url: root }], ...out.paths[path] };
  // Sections the generator always writes, empty here.
  if (Object.keys(out.webhooks ?? {}).length === 0) delete out.webhooks;
  if (Object.keys(out.components.parameters ?? {}).length === 0) delete out.components.parameters;
  return out;
}

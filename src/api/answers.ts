// What each API route answers on success, for the client to check before anyone reads a field: the
// 2xx JSON schema each route declaration (routes.ts, management/) answers with, so the table cannot
// drift from the routes. Unknown fields are allowed everywhere (a newer emulator may answer more).
// Imports zod only, not the OpenAPI generator: the client loads this when it first checks an answer.
import * as z from 'zod';
import { MANAGEMENT_ROUTES } from './management/index.js';
import { PUBLIC_ROUTES } from './routes.js';

interface Declared {
  method: string;
  path: string;
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

/** The schema as the client checks it: an object (or a list of them) that refuses unknown fields accepts them. */
function tolerant(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodArray) return z.array(tolerant(schema.element as z.ZodType));
  if (schema instanceof z.ZodObject && schema.def.catchall instanceof z.ZodNever) return schema.loose();
  return schema;
}

/** The declared JSON schema of the route's success answer, or null (the event stream answers text). */
function answerOf(route: Declared): z.ZodType | null {
  const ok = Object.keys(route.responses).find((s) => s.startsWith('2'));
  const schema = ok ? route.responses[ok].content?.['application/json']?.schema : undefined;
  return schema instanceof z.ZodType ? tolerant(schema) : null;
}

/**
 * `METHOD path` (the management API under `/_vtr/api`, the public API under `/api/v1` whatever the
 * base URL's own path) → what a 2xx answer is. `*` is one path segment (a `{param}` of the route).
 * In declaration order: `/sites/default` before `/sites/*`. A route not listed only has to answer JSON.
 */
const ROUTES = ([...PUBLIC_ROUTES, ...MANAGEMENT_ROUTES] as readonly Declared[]).flatMap((r) => {
  const schema = answerOf(r);
  return schema ? [{ route: `${r.method.toUpperCase()} ${r.path.replaceAll(/\{\w+\}/g, '*')}`, method: r.method.toUpperCase(), schema }] : [];
});

const MATCHERS = ROUTES.map((r) => ({ ...r, re: new RegExp(`^${r.route.split(' ')[1].replaceAll('*', '[^/]+')}$`) }));

/** The route `method path` (no query) falls under, or null. */
export function routeOf(method: string, path: string): { route: string; schema: z.ZodType } | null {
  for (const r of MATCHERS) if (r.method === method && r.re.test(path)) return r;
  return null;
}

/** Every route with a JSON answer (a test checks each against a real emulator). */
export const LISTED_ROUTES: readonly string[] = ROUTES.map((r) => r.route);

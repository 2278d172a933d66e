// How a route is declared: a plain object typed as @hono/zod-openapi's createRoute types it, so that
// importing the declarations loads zod only (document.ts loads the generator, when a document is
// asked for). Shared by the public routes (routes.ts) and the management API (management/).
import type { RouteConfig } from '@hono/zod-openapi';
import { ERROR_CODES, ERROR_SCHEMAS, type ErrorStatus } from './common.js';

export const json = <S>(schema: S) => ({ 'application/json': { schema } });

/** A route declaration: the object itself, checked against the library's RouteConfig. */
export const declareRoute = <R extends RouteConfig>(route: R): R => route;

/** The headers the contract promises with an error answer: Allow on a 405, Retry-After on a 429. */
const ERROR_HEADERS: Partial<Record<number, Record<string, { description: string; schema: { type: 'string' | 'integer' } }>>> = {
  405: { Allow: { description: 'The methods the path answers, e.g. `POST, OPTIONS`', schema: { type: 'string' } } },
  429: { 'Retry-After': { description: 'Seconds to wait before sending again', schema: { type: 'integer' } } },
};

/** An error answer's `headers` entry, when its status promises any. */
export const errorHeaders = (status: number) => (ERROR_HEADERS[status] ? { headers: ERROR_HEADERS[status] } : {});

/** The public API's error answers of these statuses, each with the codes of its status. */
export function errors<const S extends ErrorStatus>(...statuses: S[]) {
  return Object.fromEntries(
    statuses.map((s) => [s, { description: ERROR_CODES[s].description, content: json(ERROR_SCHEMAS[s]), ...errorHeaders(s) }]),
  ) as { [K in S]: { description: string; content: { 'application/json': { schema: (typeof ERROR_SCHEMAS)[K] } }; headers?: (typeof ERROR_HEADERS)[number] } };
}

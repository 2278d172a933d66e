// The public API's request log: /_vtr/api/logs (newest first) and /_vtr/api/logs/{request_id}.
import * as z from 'zod';
import { Timestamp } from '../common.js';
import { declareRoute, json } from '../declare.js';
import { before, failures, limit, MANAGEMENT_SECURITY as security, MANAGEMENT_TAG, pathId, siteFilter } from './common.js';

const tags = [MANAGEMENT_TAG];

export const RequestLogEntry = z
  .looseObject({
    request_id: z.string(),
    method: z.string(),
    path: z.string(),
    status: z.number().int(),
    duration_ms: z.number(),
    site_id: z.string().nullable(),
    request_body: z.string().nullable().meta({ description: 'Secrets masked' }),
    response_body: z.string().nullable(),
    created_at: Timestamp,
  })
  .meta({ id: 'RequestLogEntry' });

export const listLogsRoute = declareRoute({
  method: 'get', path: '/_vtr/api/logs', operationId: 'listRequestLog', summary: 'Public API requests, newest first', tags, security,
  request: { query: z.object({ limit: limit(100), before, site: siteFilter }) },
  responses: { 200: { description: 'The requests', content: json(z.array(RequestLogEntry)) }, ...failures('read', 400, 404) },
});
export const getLogRoute = declareRoute({
  method: 'get', path: '/_vtr/api/logs/{request_id}', operationId: 'getRequestLogEntry', summary: 'One request of the log', tags, security,
  request: { params: z.object({ request_id: pathId('request_id', 'The request') }) },
  responses: { 200: { description: 'The request', content: json(RequestLogEntry) }, ...failures('read', 404) },
});

export const LOG_ROUTES = [listLogsRoute, getLogRoute] as const;

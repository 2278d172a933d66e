// Visitor checks as recorded: /_vtr/api/checks (newest first) and /_vtr/api/checks/{check_id}.
import * as z from 'zod';
import { CheckResult } from '../check.js';
import { declareRoute, json } from '../declare.js';
import { before, failures, limit, MANAGEMENT_SECURITY as security, MANAGEMENT_TAG, pathId, siteFilter } from './common.js';

const tags = [MANAGEMENT_TAG];

/** A recorded check: its result as answered, and the site it was made for. */
export const CheckRecord = CheckResult.extend({ site_id: z.string() }).meta({ id: 'CheckRecord' });

export const listChecksRoute = declareRoute({
  method: 'get', path: '/_vtr/api/checks', operationId: 'listChecks', summary: 'Visitor checks, newest first', tags, security,
  request: {
    query: z.object({
      limit: limit(50), site: siteFilter, before,
      session: z.string().min(1, 'must not be empty: leave session out for every check').optional().meta({ description: "Only this session's checks (`session_id`)" }),
    }),
  },
  responses: { 200: { description: 'The checks', content: json(z.array(CheckRecord)) }, ...failures('read', 400, 404) },
});
export const getCheckRoute = declareRoute({
  method: 'get', path: '/_vtr/api/checks/{check_id}', operationId: 'getCheck', summary: 'Read a check', tags, security,
  request: { params: z.object({ check_id: pathId('check_id', "The check's `id`") }) },
  responses: { 200: { description: 'The check', content: json(CheckRecord) }, ...failures('read', 404) },
});

export const CHECK_ROUTES = [listChecksRoute, getCheckRoute] as const;

// The whole state as one JSON document: GET/PUT /_vtr/api/state, POST /_vtr/api/state/reset.
import * as z from 'zod';
import { Timestamp } from '../common.js';
import { STATE_TABLES_HEADER } from '../../domain/state-summary.js';
import { declareRoute, json } from '../declare.js';
import { failures, MANAGEMENT_SECURITY as security, MANAGEMENT_TAG } from './common.js';

const tags = [MANAGEMENT_TAG];

/** Checked by the import itself (its version, tables and columns), with messages naming what is wrong. */
export const StateDocument = z
  .looseObject({
    vtr_state_version: z.number().int(),
    exported_at: Timestamp,
    schema_version: z.number().int(),
    tables: z.record(z.string(), z.array(z.record(z.string(), z.union([z.string(), z.number(), z.null()])))).meta({ description: 'Table name → its rows' }),
  })
  .meta({ id: 'StateDocument', description: 'Everything the emulator holds (`vtr state export`)' });

export const StateImported = z
  .looseObject({
    imported: z.literal(true),
    tables: z.record(z.string(), z.number().int()).meta({ description: 'Rows imported per table' }),
    default_site_created: z.string().nullable().meta({ description: 'A document without sites gets a default site: its id' }),
    clock_behind_ms: z.number().int().nullable().optional().meta({
      description: "How far this emulator's system clock is behind the file's exported_at: its rows and scheduled attempts lie in the future (import into --clock manual or frozen to move the clock there); else null",
    }),
  })
  .meta({ id: 'StateImported' });

export const StateReset = z
  .looseObject({
    reset: z.literal(true),
    site: z.looseObject({ site_id: z.string(), name: z.string(), site_key: z.string(), secret_key: z.string() }),
    access_token: z.string(),
  })
  .meta({ id: 'StateReset', description: 'The default site, its id, keys and first access token as they were, and that token' });

export const exportStateRoute = declareRoute({
  method: 'get', path: '/_vtr/api/state', operationId: 'exportState', summary: 'Export the whole state', tags, security,
  responses: {
    200: {
      description: 'The state, sent as it is read (a document of any size); its rows per table in a header',
      content: json(StateDocument),
      headers: { [STATE_TABLES_HEADER]: { description: 'Rows per table, a JSON object: `{"sites":1,"sessions":40,...}`', schema: { type: 'string' as const } } },
    },
    ...failures('read'),
  },
});
export const importStateRoute = declareRoute({
  method: 'put', path: '/_vtr/api/state', operationId: 'importState', summary: 'Replace the whole state (at most 4 GiB)', tags, security,
  request: { body: { required: true, content: json(StateDocument) } },
  responses: { 200: { description: 'Imported', content: json(StateImported) }, ...failures('write', 409) },
});
export const resetStateRoute = declareRoute({
  method: 'post', path: '/_vtr/api/state/reset', operationId: 'resetState', summary: 'Empty everything; the default site comes back with the same id, keys and access token', tags, security,
  responses: { 200: { description: 'Reset', content: json(StateReset) }, ...failures('write') },
});

export const STATE_ROUTES = [exportStateRoute, importStateRoute, resetStateRoute] as const;

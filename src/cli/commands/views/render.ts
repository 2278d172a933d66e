import { ApiError } from '../../../client/api-client.js';
import { FilterError, formatFilterError, parseFilter } from '../../../domain/filter/index.js';
import type { SavedView } from '../../../domain/webhooks.js';
import { UsageError } from '../../errors.js';
import { keyValues, table } from '../../output.js';

export const renderViews = (views: SavedView[]) =>
  table(['VIEW', 'NAME', 'TRIGGERS WEBHOOKS', 'FILTER'], views.map((v) => [v.saved_view_id, v.name, v.trigger_webhooks ? 'yes' : 'no', v.filter]));

export const renderView = (v: SavedView) =>
  keyValues([
    ['saved_view_id', v.saved_view_id],
    ['site_id', v.site_id],
    ['name', v.name],
    ['filter', v.filter],
    ['trigger_webhooks', v.trigger_webhooks],
    ['created_at', v.created_at],
  ]);

/**
 * A filter the user typed that the server refused: a usage error with the caret under the spot.
 * The API's schema refuses a filter over its length limit before parsing it (no position): the
 * filter language says where, as `sessions list --where` does.
 */
export function filterUsageError(err: unknown, filter: string | undefined): unknown {
  if (!(err instanceof ApiError) || filter === undefined) return err;
  let problem: { message: string; position: number } | null = null;
  if (err.code === 'invalid_filter') problem = { message: err.message, position: Number(err.body.position ?? 0) };
  else if (err.code === 'invalid_request' && err.body.field === 'filter') problem = parseProblem(filter);
  if (!problem) return err;
  const caret = formatFilterError(filter, problem);
  return new UsageError(`--filter: ${problem.message}\n${caret.split('\n').map((l) => `  ${l}`).join('\n')}`);
}

function parseProblem(filter: string): { message: string; position: number } | null {
  try {
    parseFilter(filter);
    return null;
  } catch (err) {
    return err instanceof FilterError ? { message: err.message, position: err.position } : null;
  }
}

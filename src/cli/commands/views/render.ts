import { ApiError } from '../../../client/api-client.js';
import { formatFilterError } from '../../../domain/filter/index.js';
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

/** A filter the user typed that the server refused: a usage error with the caret under the spot. */
export function filterUsageError(err: unknown, filter: string | undefined): unknown {
  if (!(err instanceof ApiError) || err.code !== 'invalid_filter' || filter === undefined) return err;
  const caret = formatFilterError(filter, { position: Number(err.body.position ?? 0) });
  return new UsageError(`--filter: ${err.message}\n${caret.split('\n').map((l) => `  ${l}`).join('\n')}`);
}

import type { SavedView } from '../../../domain/webhooks.js';
import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { output } from '../../output.js';
import { enc, onGivenSite } from '../../site-ref.js';
import { filterUsageError, renderView } from './render.js';
import { hintWhenNoWebhook } from './webhook-hint.js';

export interface UpdateViewOptions {
  args: string[];
  name?: string;
  filter?: string;
  /** --trigger-webhooks / --no-trigger-webhooks; undefined when neither was given. */
  triggerWebhooks?: boolean;
}

export async function run(o: UpdateViewOptions, ctx: CliContext): Promise<void> {
  const body: Record<string, unknown> = {};
  if (o.name !== undefined) body.name = o.name;
  if (o.filter !== undefined) body.filter = o.filter;
  if (o.triggerWebhooks !== undefined) body.trigger_webhooks = o.triggerWebhooks;
  if (Object.keys(body).length === 0) throw new UsageError('nothing to change: give at least one of --name, --filter, --trigger-webhooks, --no-trigger-webhooks');
  const client = await ctx.client();
  await onGivenSite(ctx, client, `/views/${enc(o.args[0])}`, `saved view ${o.args[0]}`);
  let view: SavedView;
  try {
    view = await client.admin<SavedView>('PATCH', `/views/${enc(o.args[0])}`, { body });
  } catch (err) {
    throw filterUsageError(err, o.filter);
  }
  output(ctx, view, () => renderView(view));
  if (o.triggerWebhooks) await hintWhenNoWebhook(ctx, client, view.site_id);
}

import type { SavedView } from '../../../domain/webhooks.js';
import type { CliContext } from '../../context.js';
import { output } from '../../output.js';
import { currentSiteId, enc } from '../../site-ref.js';
import { filterUsageError, renderView } from './render.js';
import { hintWhenNoWebhook } from './webhook-hint.js';

export interface CreateViewOptions {
  site?: string;
  name?: string;
  filter?: string;
  triggerWebhooks?: boolean;
}

export async function run(o: CreateViewOptions, ctx: CliContext): Promise<void> {
  const name = o.name ?? (await ctx.prompter.input('--name is required: the saved view\'s name'));
  const filter = o.filter ?? (await ctx.prompter.input('--filter is required: e.g. "risk_level in (suspicious, invalid)"'));
  const client = await ctx.client();
  const siteId = await currentSiteId(ctx, client, o.site);
  let view: SavedView;
  try {
    view = await client.admin<SavedView>('POST', `/sites/${enc(siteId)}/views`, { body: { name, filter, trigger_webhooks: !!o.triggerWebhooks } });
  } catch (err) {
    throw filterUsageError(err, filter);
  }
  output(ctx, view, () => renderView(view));
  if (!view.trigger_webhooks) ctx.info('Sessions matching it trigger no webhooks; add --trigger-webhooks (vtr views update) to change that.');
  else await hintWhenNoWebhook(ctx, client, view.site_id);
}

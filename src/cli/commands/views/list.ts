import type { SavedView } from '../../../domain/webhooks.js';
import type { CliContext } from '../../context.js';
import { output } from '../../output.js';
import { currentSiteId, enc } from '../../site-ref.js';
import { renderViews } from './render.js';

export async function run(o: { site?: string }, ctx: CliContext): Promise<void> {
  const client = await ctx.client();
  const views = await client.admin<SavedView[]>('GET', `/sites/${enc(await currentSiteId(ctx, client, o.site))}/views`);
  output(ctx, views, () => (views.length ? renderViews(views) : 'No saved views.'));
  // The hint goes to stderr, with the other hints.
  if (!views.length && !ctx.config.json) ctx.info('Create one: vtr views create --name N --filter F --trigger-webhooks');
}

import type { CliContext } from '../../context.js';
import { output } from '../../output.js';
import { renderSites, type SiteJson } from './render.js';

export async function run(_o: unknown, ctx: CliContext): Promise<void> {
  const client = await ctx.client();
  const sites = await client.admin<SiteJson[]>('GET', '/sites');
  output(ctx, sites, () => renderSites(sites));
}

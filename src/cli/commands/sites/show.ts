import type { CliContext } from '../../context.js';
import { output } from '../../output.js';
import { enc, siteArgIsGivenSite } from '../../site-ref.js';
import { renderSite, type SiteJson } from './render.js';

export async function run(o: { args: string[] }, ctx: CliContext): Promise<void> {
  const client = await ctx.client();
  await siteArgIsGivenSite(ctx, client, o.args[0]);
  const site = await client.admin<SiteJson>('GET', `/sites/${enc(o.args[0])}`);
  output(ctx, site, () => renderSite(site));
}

import type { CliContext } from '../../context.js';
import { output } from '../../output.js';
import { renderSite, type SiteJson } from './render.js';
import { siteBody, type SiteFlags } from './site-input.js';

export async function run(o: SiteFlags, ctx: CliContext): Promise<void> {
  const body = siteBody(o);
  if (body.name === undefined && ctx.interactive) body.name = await ctx.prompter.input('Site name', { default: 'My site' });
  const client = await ctx.client();
  const site = await client.admin<SiteJson>('POST', '/sites', { body });
  output(ctx, site, () => renderSite(site));
  ctx.info(`Created ${site.site_id}. Make an access token for it: vtr tokens create --site ${site.site_id}`);
}

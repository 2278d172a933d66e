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
  // Against a local emulator the CLI finds (or makes) the site's token and keys itself.
  ctx.info(`Created ${site.site_id}. Use it with --site ${site.site_id} (e.g. vtr check --site ${site.site_id} --ip 192.0.2.1); for your app, vtr tokens create --site ${site.site_id}`);
}

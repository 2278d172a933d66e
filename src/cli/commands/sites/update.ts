import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { output } from '../../output.js';
import { enc, siteArgIsGivenSite } from '../../site-ref.js';
import { renderSite, type SiteJson } from './render.js';
import { siteBody, type SiteFlags } from './site-input.js';

export async function run(o: SiteFlags & { args: string[] }, ctx: CliContext): Promise<void> {
  const body = siteBody(o);
  if (Object.keys(body).length === 0) throw new UsageError('nothing to change: give at least one of --name, --plan, --country, --owner-email, --conversion-events, --bounce-seconds, --excluded-countries, --ip-allowlist');
  const client = await ctx.client();
  await siteArgIsGivenSite(ctx, client, o.args[0]);
  const site = await client.admin<SiteJson>('PATCH', `/sites/${enc(o.args[0])}`, { body });
  output(ctx, site, () => renderSite(site));
}

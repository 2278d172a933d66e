import type { CliContext } from '../../context.js';
import { keyValues, output } from '../../output.js';
import { currentSiteId, enc } from '../../site-ref.js';

export interface Keys { site_id: string; site_key: string; secret_key: string }

export async function run(o: { site?: string }, ctx: CliContext): Promise<void> {
  const client = await ctx.client();
  const id = await currentSiteId(ctx, client, o.site);
  const keys = await client.admin<Keys>('GET', `/sites/${enc(id)}/keys`);
  output(ctx, keys, () => keyValues(Object.entries(keys)));
}

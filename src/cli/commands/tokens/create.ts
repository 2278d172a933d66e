import type { CliContext } from '../../context.js';
import { output } from '../../output.js';
import { currentSiteId, enc } from '../../site-ref.js';
import type { TokenJson } from './list.js';

export async function run(o: { site?: string }, ctx: CliContext): Promise<void> {
  const client = await ctx.client();
  const token = await client.admin<TokenJson>('POST', `/sites/${enc(await currentSiteId(ctx, client, o.site))}/tokens`);
  output(ctx, token, () => token.token);
}

import type { CliContext } from '../../context.js';
import { output } from '../../output.js';
import { enc } from '../../site-ref.js';
import type { TokenJson } from './list.js';

export async function run(o: { args: string[] }, ctx: CliContext): Promise<void> {
  const client = await ctx.client();
  const token = await client.admin<TokenJson>('DELETE', `/tokens/${enc(o.args[0])}`);
  output(ctx, token, () => `Revoked ${token.token} at ${token.revoked_at}`);
}

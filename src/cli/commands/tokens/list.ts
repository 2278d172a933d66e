import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { output, table } from '../../output.js';
import { currentSiteId, enc } from '../../site-ref.js';

export interface TokenJson { token: string; site_id: string; created_at: string; revoked_at: string | null }

export async function run(o: { site?: string; all?: boolean }, ctx: CliContext): Promise<void> {
  if (o.all && o.site) throw new UsageError('--all lists every site, --site one: give only one of them');
  const client = await ctx.client();
  const tokens = o.all
    ? await client.admin<TokenJson[]>('GET', '/tokens')
    : await client.admin<TokenJson[]>('GET', `/sites/${enc(await currentSiteId(ctx, client, o.site))}/tokens`);
  output(ctx, tokens, () => (tokens.length ? table(['TOKEN', 'SITE', 'CREATED', 'REVOKED'], tokens.map((t) => [t.token, t.site_id, t.created_at, t.revoked_at])) : 'No access tokens.'));
  // The hint goes to stderr, with the other hints.
  if (!tokens.length && !ctx.config.json) ctx.info(`Create one: vtr tokens create${o.site ? ` --site ${o.site}` : ''}`);
}

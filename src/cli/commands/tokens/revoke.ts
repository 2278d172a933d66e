import type { CliContext } from '../../context.js';
import { OperationError, UsageError } from '../../errors.js';
import { output } from '../../output.js';
import { enc } from '../../site-ref.js';
import type { ApiClient } from '../../../client/api-client.js';
import type { TokenJson } from './list.js';
import { emulatedClock, timeFormat } from '../../time-display.js';

export async function run(o: { args: string[]; yes?: boolean }, ctx: CliContext): Promise<void> {
  const client = await ctx.client();
  await onGivenSite(ctx, client, o.args[0]);
  // Revoking cannot be undone: ask on a terminal. Scripts (no TTY) go ahead, as with `keys rotate`.
  if (!o.yes && ctx.interactive && !(await ctx.prompter.confirm(`Revoke ${o.args[0]}? It answers 401 from then on.`))) {
    throw new OperationError('not revoked');
  }
  const token = await client.admin<TokenJson>('DELETE', `/tokens/${enc(o.args[0])}`);
  const at = timeFormat(await emulatedClock(ctx, client));
  output(ctx, token, () => `Revoked ${token.token} at ${at(token.revoked_at)}`);
}

/**
 * An explicit --site that the token is not on is a wrong token or a wrong site: refused before
 * anything is revoked, as for the other commands on one record by id (site-ref.ts#onGivenSite).
 * A token no site has is left to the API's 404.
 */
async function onGivenSite(ctx: CliContext, client: ApiClient, token: string): Promise<void> {
  if (ctx.config.siteFrom !== '--site' || !ctx.config.site) return;
  const [tokens, site] = await Promise.all([
    client.admin<TokenJson[]>('GET', '/tokens'),
    client.admin<{ site_id: string }>('GET', `/sites/${enc(ctx.config.site)}`),
  ]);
  const found = tokens.find((t) => t.token === token);
  if (found && found.site_id !== site.site_id) {
    throw new UsageError(`--site: access token ${token} is on site ${found.site_id}, not ${site.site_id}; leave --site out, or give --site ${found.site_id}`);
  }
}

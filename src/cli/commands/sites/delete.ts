import type { CliContext } from '../../context.js';
import { OperationError } from '../../errors.js';
import { output } from '../../output.js';
import { enc, siteArgIsGivenSite } from '../../site-ref.js';

export async function run(o: { args: string[]; yes?: boolean }, ctx: CliContext): Promise<void> {
  const id = o.args[0];
  const client = await ctx.client();
  await siteArgIsGivenSite(ctx, client, id);
  if (!o.yes && !(await ctx.prompter.confirm(`Delete site ${id} with all its sessions, checks, views and webhooks?`))) {
    throw new OperationError('not deleted');
  }
  const wasDefault = await client.admin<{ is_default: boolean }>('GET', `/sites/${enc(id)}`).then((s) => s.is_default, () => false);
  const result = await client.admin('DELETE', `/sites/${enc(id)}`);
  if (wasDefault) {
    // Commands without --site now act on another site: say which.
    const heir = await client.admin<{ site_id: string; name: string }>('GET', '/sites/default').catch(() => null);
    if (heir) ctx.info(`vtr: ${id} was the default site; the default is now ${heir.site_id} ("${heir.name}")`);
  }
  output(ctx, result, () => `Deleted ${id}`);
}

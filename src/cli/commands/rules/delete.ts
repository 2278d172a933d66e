import type { CliContext } from '../../context.js';
import { OperationError } from '../../errors.js';
import { output } from '../../output.js';
import { currentSiteId, enc } from '../../site-ref.js';

export async function run(o: { args: string[]; site?: string; yes?: boolean }, ctx: CliContext): Promise<void> {
  const id = o.args[0];
  if (!o.yes && !(await ctx.prompter.confirm(`Delete rule ${id}?`))) throw new OperationError('not deleted');
  const client = await ctx.client();
  const siteId = await currentSiteId(ctx, client, o.site);
  const result = await client.admin('DELETE', `/sites/${enc(siteId)}/rules/${enc(id)}`);
  output(ctx, result, () => `Deleted ${id}`);
}

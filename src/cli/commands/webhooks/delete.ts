import type { CliContext } from '../../context.js';
import { OperationError } from '../../errors.js';
import { output } from '../../output.js';
import { enc, onGivenSite } from '../../site-ref.js';

export async function run(o: { args: string[]; yes?: boolean }, ctx: CliContext): Promise<void> {
  const id = o.args[0];
  const client = await ctx.client();
  await onGivenSite(ctx, client, `/webhooks/${enc(id)}`, `webhook ${id}`);
  if (!o.yes && !(await ctx.prompter.confirm(`Delete webhook ${id} with its event history?`))) throw new OperationError('not deleted');
  const result = await client.admin('DELETE', `/webhooks/${enc(id)}`);
  output(ctx, result, () => `Deleted ${id}`);
}

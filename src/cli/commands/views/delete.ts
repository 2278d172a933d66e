import type { CliContext } from '../../context.js';
import { OperationError } from '../../errors.js';
import { output } from '../../output.js';
import { enc, onGivenSite } from '../../site-ref.js';

export async function run(o: { args: string[]; yes?: boolean }, ctx: CliContext): Promise<void> {
  const id = o.args[0];
  const client = await ctx.client();
  await onGivenSite(ctx, client, `/views/${enc(id)}`, `saved view ${id}`);
  if (!o.yes && !(await ctx.prompter.confirm(`Delete saved view ${id}? (its webhook events are kept)`))) throw new OperationError('not deleted');
  const result = await client.admin('DELETE', `/views/${enc(id)}`);
  output(ctx, result, () => `Deleted ${id}`);
}

import type { Rule } from '../../../domain/rules.js';
import type { CliContext } from '../../context.js';
import { OperationError } from '../../errors.js';
import { output } from '../../output.js';
import { currentSiteId, enc } from '../../site-ref.js';
import { onRuleSite } from './other-site.js';

export async function run(o: { args: string[]; site?: string; yes?: boolean }, ctx: CliContext): Promise<void> {
  const id = o.args[0];
  const client = await ctx.client();
  const siteId = await currentSiteId(ctx, client, o.site);
  const path = `/sites/${enc(siteId)}/rules/${enc(id)}`;
  // Read first: an unknown rule is a 404, and a built-in one is refused by the delete itself (it says
  // to disable it) without first asking a question, or wanting a --yes, that cannot help.
  const rule = await onRuleSite(client, siteId, id, () => client.admin<Rule>('GET', path));
  if (rule.type === 'custom' && !o.yes && !(await ctx.prompter.confirm(`Delete rule ${rule.name} (${id})?`))) throw new OperationError('not deleted');
  const result = await client.admin('DELETE', path);
  output(ctx, result, () => `Deleted ${id}`);
}

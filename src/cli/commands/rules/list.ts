import type { Rule } from '../../../domain/rules.js';
import type { CliContext } from '../../context.js';
import { output } from '../../output.js';
import { currentSiteId, enc } from '../../site-ref.js';
import { renderRules } from './render.js';

export async function run(o: { site?: string }, ctx: CliContext): Promise<void> {
  const client = await ctx.client();
  const rules = await client.admin<Rule[]>('GET', `/sites/${enc(await currentSiteId(ctx, client, o.site))}/rules`);
  output(ctx, rules, () => renderRules(rules));
}

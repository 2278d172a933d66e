import type { Rule } from '../../../domain/rules.js';
import type { CliContext } from '../../context.js';
import { output } from '../../output.js';
import { currentSiteId, enc } from '../../site-ref.js';
import { renderRules, type RuleSite } from './render.js';

export async function run(o: { site?: string }, ctx: CliContext): Promise<void> {
  const client = await ctx.client();
  const siteId = enc(await currentSiteId(ctx, client, o.site));
  // The table shows the allowlist's entries and the country location compares with; --json is the rules alone.
  const [rules, site] = await Promise.all([
    client.admin<Rule[]>('GET', `/sites/${siteId}/rules`),
    ctx.config.json ? null : client.admin<RuleSite>('GET', `/sites/${siteId}`),
  ]);
  output(ctx, rules, () => renderRules(rules, site!));
}

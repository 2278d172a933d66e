import { RULE_ACTIONS, type Rule } from '../../../domain/rules.js';
import type { CliContext } from '../../context.js';
import { output } from '../../output.js';
import { currentSiteId, enc } from '../../site-ref.js';
import { filterUsageError } from '../views/render.js';
import { renderRule } from './render.js';

export interface CreateRuleOptions {
  site?: string;
  name?: string;
  filter?: string;
  action?: string;
  disabled?: boolean;
}

export async function run(o: CreateRuleOptions, ctx: CliContext): Promise<void> {
  const name = o.name ?? (await ctx.prompter.input('--name is required: the rule\'s name'));
  const filter = o.filter ?? (await ctx.prompter.input('--filter is required: e.g. "risks contains disposable_email"'));
  // Enter alone takes review, as the console's form does: never allow, which overrides every block.
  const action = o.action ?? (await ctx.prompter.select('--action is required: what a match decides', [...RULE_ACTIONS], { default: 'review' }));
  const client = await ctx.client();
  const siteId = await currentSiteId(ctx, client, o.site);
  let rule: Rule;
  try {
    rule = await client.admin<Rule>('POST', `/sites/${enc(siteId)}/rules`, { body: { name, filter, action, enabled: !o.disabled } });
  } catch (err) {
    throw filterUsageError(err, filter);
  }
  output(ctx, rule, () => renderRule(rule));
}

import { isSmartRuleId, MAX_THRESHOLD, type Rule } from '../../../domain/rules.js';
import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { wholeNumber } from '../../whole-number.js';
import { output } from '../../output.js';
import { currentSiteId, enc } from '../../site-ref.js';
import { filterUsageError } from '../views/render.js';
import { onRuleSite } from './other-site.js';
import { renderRule } from './render.js';

export interface UpdateRuleOptions {
  args: string[];
  site?: string;
  name?: string;
  filter?: string;
  action?: string;
  threshold?: string;
  enable?: boolean;
  disable?: boolean;
}

export async function run(o: UpdateRuleOptions, ctx: CliContext): Promise<void> {
  if (o.enable && o.disable) throw new UsageError('--enable and --disable: give one of them');
  const body: Record<string, unknown> = {};
  if (o.name !== undefined) body.name = o.name;
  if (o.filter !== undefined) body.filter = o.filter;
  if (o.action !== undefined) body.action = o.action;
  if (o.threshold !== undefined) body.threshold = wholeNumber('--threshold', o.threshold, 1, MAX_THRESHOLD);
  if (o.enable) body.enabled = true;
  if (o.disable) body.enabled = false;
  if (Object.keys(body).length === 0) throw new UsageError('nothing to change: give at least one of --name, --filter, --action, --threshold, --enable, --disable');
  const client = await ctx.client();
  const siteId = await currentSiteId(ctx, client, o.site);
  let rule: Rule;
  try {
    rule = await onRuleSite(client, siteId, o.args[0], () => client.admin<Rule>('PATCH', `/sites/${enc(siteId)}/rules/${enc(o.args[0])}`, { body }));
  } catch (err) {
    // A smart rule takes no filter at all: the server's refusal says so, which a caret under a
    // mistake in the filter would hide (fixing it would only lead to that refusal).
    throw filterUsageError(err, isSmartRuleId(o.args[0]) ? undefined : o.filter);
  }
  output(ctx, rule, () => renderRule(rule));
}

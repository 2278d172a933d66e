// A site's rules (contract section 4b): /_vtr/api/sites/{site_id}/rules (list, create) and
// /_vtr/api/sites/{site_id}/rules/{rule_id} (read, change, delete). Smart rules have fixed ids per
// site, hence the site in every path.
import * as z from 'zod';
import { MAX_FILTER_LENGTH } from '../../domain/filter/index.js';
import { MAX_THRESHOLD, RULE_ACTIONS, RULE_TYPES } from '../../domain/rules.js';
import { Timestamp } from '../common.js';
import { declareRoute, json } from '../declare.js';
import { deleted, failures, forDefault, Name, nameOf, nullNotAllowed, nullRequired, MANAGEMENT_SECURITY as security, MANAGEMENT_TAG, pathId, SiteParams } from './common.js';

const tags = [MANAGEMENT_TAG];
const NOT_AN_ACTION = `must be one of ${RULE_ACTIONS.join(', ')}`;
const FILTER = 'Custom rules: over the check\'s subject, in the saved-view language';
const ruleFields = {
  name: Name,
  filter: z.string(nullRequired('a rule needs a filter', 'a string')).min(1).max(MAX_FILTER_LENGTH).meta({ description: FILTER }),
  action: z.enum(RULE_ACTIONS, nullRequired('a rule needs an action', `one of ${RULE_ACTIONS.join(', ')}`, NOT_AN_ACTION)),
  threshold: z.number().int().min(1).max(MAX_THRESHOLD).nullable().meta({ description: 'Smart rules that count (repeat_device, emails_per_device)' }),
  enabled: z.boolean(),
};
/** A custom rule; its name defaults to its filter. The console's rule forms validate with the same schemas. */
export const RuleCreate = z
  .strictObject({
    ...ruleFields,
    name: nameOf(nullNotAllowed('a rule needs a name', undefined, 'to name it after its filter')).optional(),
    enabled: z.boolean(nullNotAllowed('use true or false', undefined, forDefault(true))).optional(),
    threshold: ruleFields.threshold.optional(),
  })
  .meta({ id: 'RuleCreate' });
/**
 * Any rule, smart ones by their fixed ids (`bot`, `location`, ...). `filter` and `threshold` take null
 * where the rule has none, as its JSON shows them; the service refuses it where the rule has one.
 */
export const RuleUpdate = z
  .strictObject({
    ...ruleFields,
    name: nameOf(nullNotAllowed('a rule needs a name')),
    filter: z.string().min(1).max(MAX_FILTER_LENGTH).nullable().meta({ description: `${FILTER}; null (smart rules) is no change` }),
    action: z.enum(RULE_ACTIONS, nullNotAllowed('a rule needs an action', NOT_AN_ACTION)),
    enabled: z.boolean(nullNotAllowed('use true or false')),
  })
  .partial()
  .meta({ id: 'RuleUpdate' });

export const Rule = z
  .looseObject({
    rule_id: z.string().meta({ description: 'Smart rules: bot, anonymous, location, repeat_device, emails_per_device; the allowlist: allowlist' }),
    site_id: z.string(),
    type: z.enum(RULE_TYPES),
    name: z.string(),
    filter: z.string().nullable().meta({ description: 'Custom rules; else null' }),
    action: z.enum(RULE_ACTIONS),
    threshold: z.number().int().nullable(),
    enabled: z.boolean(),
    created_at: Timestamp.meta({ description: "Smart rules: the site's creation" }),
  })
  .meta({ id: 'Rule' });

const RuleParams = SiteParams.extend({ rule_id: pathId('rule_id', 'The rule') });

export const listRulesRoute = declareRoute({
  method: 'get', path: '/_vtr/api/sites/{site_id}/rules', operationId: 'listRules', summary: "The site's rules, in evaluation order", tags, security,
  request: { params: SiteParams },
  responses: { 200: { description: 'The allowlist, the smart rules, then custom rules', content: json(z.array(Rule)) }, ...failures('read', 404) },
});
export const createRuleRoute = declareRoute({
  method: 'post', path: '/_vtr/api/sites/{site_id}/rules', operationId: 'createRule', summary: 'Create a custom rule', tags, security,
  request: { params: SiteParams, body: { required: true, content: json(RuleCreate) } },
  responses: { 201: { description: 'The new rule', content: json(Rule) }, ...failures('write', 404) },
});
export const getRuleRoute = declareRoute({
  method: 'get', path: '/_vtr/api/sites/{site_id}/rules/{rule_id}', operationId: 'getRule', summary: 'Read a rule', tags, security,
  request: { params: RuleParams },
  responses: { 200: { description: 'The rule', content: json(Rule) }, ...failures('read', 404) },
});
export const updateRuleRoute = declareRoute({
  method: 'patch', path: '/_vtr/api/sites/{site_id}/rules/{rule_id}', operationId: 'updateRule', summary: 'Change a rule (enable, disable, action, threshold, ...)', tags, security,
  request: { params: RuleParams, body: { required: true, content: json(RuleUpdate) } },
  responses: { 200: { description: 'The rule as changed', content: json(Rule) }, ...failures('write', 404) },
});
export const deleteRuleRoute = declareRoute({
  method: 'delete', path: '/_vtr/api/sites/{site_id}/rules/{rule_id}', operationId: 'deleteRule', summary: 'Delete a custom rule (smart rules are disabled instead)', tags, security,
  request: { params: RuleParams },
  responses: { 200: { description: 'Deleted', content: json(deleted('RuleDeleted', 'rule_id')) }, ...failures('write', 404) },
});

export const RULE_ROUTES = [listRulesRoute, createRuleRoute, getRuleRoute, updateRuleRoute, deleteRuleRoute] as const;

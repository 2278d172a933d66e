// A site's rules, mounted from their declarations (api/management/rules.ts).
import type { Hono } from 'hono';
import { createRuleRoute, deleteRuleRoute, getRuleRoute, listRulesRoute, RuleCreate, RuleUpdate, updateRuleRoute } from '../../api/management/rules.js';
import type { AppDeps } from '../deps.js';
import { param, readChange, readJsonObject, siteParam } from '../http.js';
import { mount } from '../mount.js';
import { validate } from '../validate.js';

export function adminRuleRoutes(app: Hono, { rules, sites }: AppDeps): void {
  if (!rules) return;
  const site = (c: Parameters<typeof param>[0]) => siteParam(c, { sites });
  mount(app, [
    [listRulesRoute, (c) => c.json(rules.list(site(c)))],
    [createRuleRoute, async (c) => c.json(rules.create(site(c), validate(RuleCreate, await readJsonObject(c))), 201)],
    [getRuleRoute, (c) => c.json(rules.get(site(c), param(c, 'rule_id')))],
    [updateRuleRoute, async (c) => c.json(rules.update(site(c), param(c, 'rule_id'), validate(RuleUpdate, await readChange(c, '{"action": "block"}'))))],
    [deleteRuleRoute, (c) => {
      const r = rules.delete(site(c), param(c, 'rule_id'));
      return c.json({ deleted: true, rule_id: r.rule_id });
    }],
  ]);
}

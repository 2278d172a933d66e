// A site's rules: /_vtr/api/sites/:id/rules (list, create) and /_vtr/api/sites/:id/rules/:rule_id
// (read, change, delete). Smart rules have fixed ids per site, hence the site in every path.
import type { Hono } from 'hono';
import { z } from 'zod';
import { MAX_FILTER_LENGTH } from '../../domain/filter/index.js';
import { RULE_ACTIONS } from '../../domain/rules.js';
import type { AppDeps } from '../deps.js';
import { param, readJsonObject, route } from '../http.js';
import { validate } from '../validate.js';

const ruleFields = {
  name: z.string().min(1).max(200),
  filter: z.string().min(1).max(MAX_FILTER_LENGTH),
  action: z.enum(RULE_ACTIONS, { error: `must be one of ${RULE_ACTIONS.join(', ')}` }),
  threshold: z.number().int().min(1).max(1_000_000).nullable(),
  enabled: z.boolean(),
};
const createBody = z.strictObject({ ...ruleFields, name: ruleFields.name.optional(), enabled: ruleFields.enabled.optional(), threshold: ruleFields.threshold.optional() });
const updateBody = z.strictObject(ruleFields).partial();
/** The console's rule forms validate with the same schemas. */
export { createBody as ruleCreateBody, updateBody as ruleUpdateBody };

export function adminRuleRoutes(app: Hono, { rules }: AppDeps): void {
  if (!rules) return;
  route(app, '/_vtr/api/sites/:id/rules', {
    GET: (c) => c.json(rules.list(param(c, 'id'))),
    POST: async (c) => {
      const body = validate(createBody, await readJsonObject(c));
      return c.json(rules.create(param(c, 'id'), { ...body, name: body.name ?? body.filter }), 201);
    },
  });
  route(app, '/_vtr/api/sites/:id/rules/:rule', {
    GET: (c) => c.json(rules.get(param(c, 'id'), param(c, 'rule'))),
    PATCH: async (c) => c.json(rules.update(param(c, 'id'), param(c, 'rule'), validate(updateBody, await readJsonObject(c)))),
    DELETE: (c) => {
      const r = rules.delete(param(c, 'id'), param(c, 'rule'));
      return c.json({ deleted: true, rule_id: r.rule_id });
    },
  });
}

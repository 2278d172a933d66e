// A site's rules (contract section 4b): the allowlist (the site's `ip_allowlist`, shown as a rule),
// the five smart rules (their defaults until the site changes them) and custom rules. What a check
// does with them is domain/rules.ts#decide.
import type { Clock } from '../domain/clock.js';
import { notFound, shownId, VtrError } from '../domain/errors.js';
import { createFilterCache, parseFilter, FilterError, type FilterNode } from '../domain/filter/index.js';
import { newId } from '../domain/ids.js';
import { MAX_NAME_LENGTH, newNameProblem, oneLine } from '../domain/names.js';
import {
  ALLOWLIST_RULE_ID, allowlistChangeRefused, isRuleAction, isSmartRuleId, MAX_THRESHOLD, RULE_ACTIONS, SMART_RULES, type Rule, type RuleAction,
} from '../domain/rules.js';
import type { Site } from '../domain/site.js';
import { formatMicros } from '../domain/time.js';
import type { EventBus } from '../events/bus.js';
import type { Store } from '../store/index.js';

export interface RuleInput {
  name?: string;
  /** null (a change only): none, which only a smart rule has. */
  filter?: string | null;
  action?: string;
  threshold?: number | null;
  enabled?: boolean;
}

function parsed(filter: string): FilterNode {
  try {
    return parseFilter(filter, { knownCountries: true, saved: true });
  } catch (err) {
    if (err instanceof FilterError) throw new VtrError('invalid_filter', err.message, { field: 'filter', position: err.position });
    throw err;
  }
}

function action(v: unknown): RuleAction {
  if (!isRuleAction(v)) throw new VtrError('invalid_request', `action: must be one of ${RULE_ACTIONS.join(', ')}`, { field: 'action' });
  return v;
}

/** A rule created without a name is named after its filter, shortened to fit a name. */
function nameFromFilter(text: string): string {
  const filter = oneLine(text);
  return filter.length <= MAX_NAME_LENGTH ? filter : `${filter.slice(0, MAX_NAME_LENGTH - 1)}…`;
}

function name(v: unknown): string {
  const problem = typeof v === 'string' ? newNameProblem(v) : 'expected a string';
  if (problem) throw new VtrError('invalid_request', `name: ${problem}`, { field: 'name' });
  return v as string;
}

/** The allowlist as a rule: always on, `allow`; edited through the site's `ip_allowlist`. */
function allowlistRule(site: Site): Rule {
  return {
    rule_id: ALLOWLIST_RULE_ID, site_id: site.site_id, type: 'allowlist', name: 'IP allowlist', filter: null,
    action: 'allow', threshold: null, enabled: true, created_at: site.created_at,
  };
}

export function createRuleService({ store, clock, bus }: { store: Store; clock: Clock; bus?: EventBus }) {
  const announce = (type: 'rule.created' | 'rule.updated' | 'rule.deleted', rule: Rule) => bus?.publish({ type, data: { ...rule } });
  const filterOf = createFilterCache();
  const site = (siteId: string): Site => {
    const s = store.sites.get(siteId);
    if (!s) throw notFound(`site ${shownId(siteId)}`);
    return s;
  };

  /** Every rule of the site in evaluation order: allowlist, smart (settings over defaults), custom. */
  function list(siteId: string): Rule[] {
    const s = site(siteId);
    const stored = store.rules.forSite(siteId);
    const smart = SMART_RULES.map((d): Rule => {
      const own = stored.find((r) => r.type === 'smart' && r.rule_id === d.id);
      return own ?? { rule_id: d.id, site_id: siteId, type: 'smart', name: d.name, filter: null, action: d.action, threshold: d.threshold, enabled: d.enabled, created_at: s.created_at };
    });
    return [allowlistRule(s), ...smart, ...stored.filter((r) => r.type === 'custom')];
  }

  function get(siteId: string, ruleId: string): Rule {
    const rule = list(siteId).find((r) => r.rule_id === ruleId);
    if (!rule) throw notFound(`rule ${shownId(ruleId)}`);
    return rule;
  }

  return {
    list,
    get,
    /** The parsed filter of a custom rule (checked when it was saved; null, matching nothing, if it no longer parses). */
    filterOf: (rule: Rule): FilterNode | null => filterOf(rule.filter ?? ''),
    create(siteId: string, input: RuleInput): Rule {
      site(siteId);
      if (input.filter == null) throw new VtrError('invalid_request', 'filter: required', { field: 'filter' });
      if (input.action === undefined) throw new VtrError('invalid_request', 'action: required', { field: 'action' });
      if (input.threshold != null) throw new VtrError('invalid_request', 'threshold: only the smart rules repeat_device and emails_per_device take one', { field: 'threshold' });
      parsed(input.filter);
      const rule: Rule = {
        rule_id: newId.rule(), site_id: siteId, type: 'custom', name: name(input.name ?? nameFromFilter(input.filter)), filter: input.filter,
        action: action(input.action), threshold: null, enabled: input.enabled ?? true, created_at: formatMicros(clock.nowMicros()),
      };
      store.rules.save(rule);
      announce('rule.created', rule);
      return rule;
    },
    update(siteId: string, ruleId: string, input: RuleInput): Rule {
      const rule = get(siteId, ruleId);
      // Only a real change is refused: {} (or the values it has) is the no-op it is on any other rule.
      const fields = ['name', 'filter', 'action', 'threshold', 'enabled'] as const;
      if (rule.type === 'allowlist' && fields.every((f) => input[f] === undefined || input[f] === rule[f])) return rule;
      if (rule.type === 'allowlist') throw allowlistChangeRefused(siteId);
      const next: Rule = { ...rule };
      if (input.name !== undefined) next.name = name(input.name);
      if (input.action !== undefined) next.action = action(input.action);
      if (input.enabled !== undefined) next.enabled = input.enabled;
      // null where the rule has none (a smart rule's filter, a threshold of one that does not count) is
      // the value it has, as a client sending back every field of the rule's JSON does.
      const keep = 'leave it out to keep the current one';
      if (input.filter === null && rule.type === 'custom') {
        throw new VtrError('invalid_request', `filter: cannot be null (a custom rule needs a filter); ${keep}`, { field: 'filter' });
      }
      if (input.threshold === null && rule.threshold !== null) {
        throw new VtrError('invalid_request', `threshold: cannot be null (${rule.rule_id} counts up to its threshold); ${keep}`, { field: 'threshold' });
      }
      if (input.filter != null) {
        if (rule.type !== 'custom') throw new VtrError('invalid_request', `filter: the smart rule ${rule.rule_id} has a fixed condition; only custom rules take a filter`, { field: 'filter' });
        parsed(input.filter);
        next.filter = input.filter;
      }
      if (input.threshold != null) {
        if (rule.threshold === null) throw new VtrError('invalid_request', `threshold: ${rule.rule_id} takes none; only repeat_device and emails_per_device do`, { field: 'threshold' });
        const t = input.threshold;
        if (typeof t !== 'number' || !Number.isInteger(t) || t < 1 || t > MAX_THRESHOLD) {
          throw new VtrError('invalid_request', `threshold: must be a whole number from 1 to ${MAX_THRESHOLD}`, { field: 'threshold' });
        }
        next.threshold = t;
      }
      // Nothing changed ({} or the values it has): nothing to save or tell the stream's listeners.
      if (JSON.stringify(next) === JSON.stringify(rule)) return rule;
      store.rules.save(next);
      announce('rule.updated', next);
      return next;
    },
    /** Deletes a custom rule. Smart rules and the allowlist are disabled, not deleted. */
    delete(siteId: string, ruleId: string): Rule {
      const rule = get(siteId, ruleId);
      if (rule.type === 'allowlist') {
        throw new VtrError('invalid_request', `the allowlist rule cannot be deleted: it is the site's ip_allowlist; empty it with \`vtr sites update ${siteId} --ip-allowlist ""\``, { field: 'rule_id' });
      }
      if (rule.type !== 'custom' || isSmartRuleId(ruleId)) {
        throw new VtrError('invalid_request', `${ruleId} is a built-in rule and cannot be deleted; disable it instead (\`vtr rules update ${ruleId} --disable\`)`, { field: 'rule_id' });
      }
      store.rules.delete(siteId, ruleId);
      announce('rule.deleted', rule);
      return rule;
    },
  };
}

export type RuleService = ReturnType<typeof createRuleService>;

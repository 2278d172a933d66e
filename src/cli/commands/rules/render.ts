import type { Rule } from '../../../domain/rules.js';
import { keyValues, table } from '../../output.js';

export const renderRules = (rules: Rule[]) =>
  table(
    ['RULE', 'TYPE', 'ENABLED', 'ACTION', 'NAME', 'CONDITION'],
    rules.map((r) => [r.rule_id, r.type, r.enabled ? 'yes' : 'no', r.action, r.name, r.filter ?? (r.threshold !== null ? `threshold ${r.threshold}` : '-')]),
  );

export const renderRule = (r: Rule) =>
  keyValues([
    ['rule_id', r.rule_id],
    ['site_id', r.site_id],
    ['type', r.type],
    ['name', r.name],
    ['filter', r.filter],
    ['action', r.action],
    ['threshold', r.threshold],
    ['enabled', r.enabled],
    ['created_at', r.created_at],
  ]);

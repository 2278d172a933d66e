import type { Rule } from '../../../domain/rules.js';
import { keyValues, table } from '../../output.js';

/** What the table needs of the rules' site: the allowlist's entries and the country `location` compares with. */
export interface RuleSite {
  ip_allowlist: string[];
  country: string | null;
}

// A built-in rule's condition in a few words: "-" said neither what it matches nor, for the
// allowlist, which addresses (the site's ip_allowlist, kept outside the rule).
function condition(r: Rule, site: RuleSite): string {
  if (r.type === 'custom') return r.filter ?? '-';
  if (r.type === 'allowlist') return site.ip_allowlist.length ? `IP in ${site.ip_allowlist.join(', ')}` : "nothing: the site's ip_allowlist is empty";
  switch (r.rule_id) {
    case 'bot': return 'risks contain bot';
    case 'anonymous': return 'risks contain anonymous, vpn, proxy or tor';
    case 'location': return site.country ? `IP country known and not ${site.country}` : 'nothing: the site has no country';
    case 'repeat_device': return `device in more than ${r.threshold} checks this and last quarter`;
    case 'emails_per_device': return `more than ${r.threshold} emails with the device`;
    default: return r.threshold !== null ? `threshold ${r.threshold}` : '-';
  }
}

export const renderRules = (rules: Rule[], site: RuleSite) =>
  table(
    ['RULE', 'TYPE', 'ENABLED', 'ACTION', 'NAME', 'CONDITION'],
    rules.map((r) => [r.rule_id, r.type, r.enabled ? 'yes' : 'no', r.action, r.name, condition(r, site)]),
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

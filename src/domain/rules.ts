// A site's rules and the decision they make on a visitor check (contract section 4b): which rules
// matched, the outcome, whether to review, and the actions a session collects. Pure.
import { VtrError } from './errors.js';
import type { RiskLevel } from './session.js';

export const RULE_ACTIONS = ['allow', 'allow_review', 'review', 'block_review', 'block'] as const;
export type RuleAction = (typeof RULE_ACTIONS)[number];
export const RULE_TYPES = ['allowlist', 'smart', 'custom'] as const;
export type RuleType = (typeof RULE_TYPES)[number];
export const OUTCOMES = ['allowed', 'blocked', 'neutral'] as const;
export type Outcome = (typeof OUTCOMES)[number];

export const SMART_RULE_IDS = ['bot', 'anonymous', 'location', 'repeat_device', 'emails_per_device'] as const;
/** The largest threshold a counting smart rule takes (the smallest is 1). */
export const MAX_THRESHOLD = 1_000_000;
export type SmartRuleId = (typeof SMART_RULE_IDS)[number];

export interface SmartRuleDefault {
  id: SmartRuleId;
  name: string;
  enabled: boolean;
  action: RuleAction;
  /** Only the rules that count something take one. */
  threshold: number | null;
}

/** The smart rules with their defaults, in evaluation order. */
export const SMART_RULES: readonly SmartRuleDefault[] = [
  { id: 'bot', name: 'Bots', enabled: true, action: 'block', threshold: null },
  { id: 'anonymous', name: 'Anonymous traffic (VPN, proxy, Tor)', enabled: true, action: 'review', threshold: null },
  { id: 'location', name: 'Outside the site\'s country', enabled: false, action: 'review', threshold: null },
  { id: 'repeat_device', name: 'Repeat device', enabled: false, action: 'review', threshold: 10 },
  { id: 'emails_per_device', name: 'Emails per device', enabled: false, action: 'review', threshold: 3 },
];

export const ALLOWLIST_RULE_ID = 'allowlist';

/** A change to the allowlist rule, refused: it is the site's ip_allowlist, changed with the site. */
export const allowlistChangeRefused = (siteId: string): VtrError =>
  new VtrError('invalid_request', `the allowlist rule is the site's ip_allowlist: change it with \`vtr sites update ${siteId} --ip-allowlist <ip|cidr,...>\` (PATCH /_vtr/api/sites/${siteId})`, { field: 'rule_id' });

/** A rule as the management API and `vtr rules` show it. */
export interface Rule {
  rule_id: string;
  site_id: string;
  type: RuleType;
  name: string;
  /** Custom rules only: a filter in the saved-view language. */
  filter: string | null;
  action: RuleAction;
  threshold: number | null;
  enabled: boolean;
  created_at: string;
}

/** One matched rule in a check's answer; clients branch on `id`. */
export interface MatchedRule {
  id: string;
  type: RuleType;
  name: string;
  action: RuleAction;
}

export interface Decision {
  outcome: Outcome;
  review: boolean;
  rules: MatchedRule[];
}

/** What the rules look at, gathered by the check. */
export interface RuleSubject {
  riskLevel: RiskLevel;
  risks: readonly string[];
  /** The check's IP is in the site's allowlist. */
  allowlisted: boolean;
  /** The IP's country, when known. */
  ipCountry: string | null;
  siteCountry: string | null;
  /** Checks of this site with the probe's device in the current and previous quarter (this one included); null without a device. */
  deviceChecks: number | null;
  /** Distinct normalised emails checked with the probe's device (this check's included); null without a device. */
  deviceEmails: number | null;
  /** A custom rule's filter over the check's subject (the probe's session, or a record made from the check). */
  matchesFilter(rule: Rule): boolean;
}

const ANONYMOUS = ['anonymous', 'vpn', 'proxy', 'tor'];

function smartMatches(id: string, threshold: number | null, s: RuleSubject): boolean {
  switch (id) {
    case 'bot':
      return s.risks.includes('bot');
    case 'anonymous':
      return s.risks.some((r) => ANONYMOUS.includes(r));
    case 'location':
      return s.ipCountry !== null && s.siteCountry !== null && s.ipCountry !== s.siteCountry;
    case 'repeat_device':
      return s.deviceChecks !== null && s.deviceChecks > (threshold ?? 0);
    case 'emails_per_device':
      return s.deviceEmails !== null && s.deviceEmails > (threshold ?? 0);
    default:
      return false;
  }
}

/** Does this enabled rule match? The allowlist is the site's `ip_allowlist`. */
function matches(rule: Rule, s: RuleSubject): boolean {
  if (rule.type === 'allowlist') return s.allowlisted;
  if (rule.type === 'smart') return smartMatches(rule.rule_id, rule.threshold, s);
  return s.matchesFilter(rule);
}

/**
 * The site's decision: every enabled rule, in order (allowlist, smart, custom), that matches; then
 * allow wins, else block (a block action, or invalid traffic, which is always blocked), else neutral.
 */
export function decide(rules: readonly Rule[], s: RuleSubject): Decision {
  const matched: MatchedRule[] = [];
  for (const rule of rules) {
    if (rule.enabled && matches(rule, s)) matched.push({ id: rule.rule_id, type: rule.type, name: rule.name, action: rule.action });
  }
  const actions = new Set(matched.map((m) => m.action));
  const outcome: Outcome =
    actions.has('allow') || actions.has('allow_review') ? 'allowed'
      : actions.has('block') || actions.has('block_review') || s.riskLevel === 'invalid' ? 'blocked'
        : 'neutral';
  const review = actions.has('allow_review') || actions.has('review') || actions.has('block_review');
  return { outcome, review, rules: matched };
}

/**
 * The actions a check adds to its session: those of the rules it matched, in order, plus `block`
 * for invalid traffic that no rule blocked (it is blocked all the same).
 */
export function actionsTaken(d: Decision): RuleAction[] {
  const out: RuleAction[] = [];
  for (const m of d.rules) if (!out.includes(m.action)) out.push(m.action);
  if (d.outcome === 'blocked' && !out.includes('block') && !out.includes('block_review')) out.push('block');
  return out;
}

/** A session's actions after a check: the distinct actions, in the order first taken. */
export function mergeActions(existing: readonly string[], added: readonly string[]): string[] {
  const out = [...existing];
  for (const a of added) if (!out.includes(a)) out.push(a);
  return out;
}

/** The start of the previous calendar quarter (UTC) before `nowMs`: repeat_device counts from there. */
export function previousQuarterStartMs(nowMs: number): number {
  const d = new Date(nowMs);
  const quarterMonth = Math.floor(d.getUTCMonth() / 3) * 3;
  return Date.UTC(d.getUTCFullYear(), quarterMonth - 3, 1);
}

export function isRuleAction(v: unknown): v is RuleAction {
  return typeof v === 'string' && (RULE_ACTIONS as readonly string[]).includes(v);
}

export function isSmartRuleId(v: string): v is SmartRuleId {
  return (SMART_RULE_IDS as readonly string[]).includes(v);
}

// The site's decision on a visitor check: gathers what the rules look at (the device's history on
// the site, the check's subject for custom filters) and runs domain/rules.ts#decide.
import { decide, previousQuarterStartMs, type Decision, type Rule } from '../domain/rules.js';
import { matchesFilter, type FilterNode, type FilterSubject } from '../domain/filter/index.js';
import type { RiskLevel, Session } from '../domain/session.js';
import type { Site } from '../domain/site.js';
import { formatMicros } from '../domain/time.js';
import type { Store } from '../store/index.js';
import type { IpCheck } from './ip.js';

export interface DecisionInput {
  site: Site;
  rules: readonly Rule[];
  /** Null: a stored filter that no longer parses, which matches nothing. */
  filterOf: (rule: Rule) => FilterNode | null;
  riskLevel: RiskLevel;
  risks: string[];
  allowlisted: boolean;
  ip: IpCheck | null;
  /** The probe's session after this check's risks were added; null without a valid probe. */
  session: Session | null;
  /** The check's normalised email, when valid. */
  email: string | null;
  nowUs: number;
  /** The subject of custom filters without a probe: made from the check alone. */
  blankSession: () => Session;
}

/**
 * A session-shaped record made from a check alone: its IP fields, geo, risks and risk level; every
 * other field null (contract section 4b), so `session_id is null` picks out checks without a valid probe.
 */
export function subjectFromCheck(blank: Session, c: Pick<DecisionInput, 'ip' | 'risks' | 'riskLevel'>): FilterSubject {
  const ip = c.ip?.valid ? c.ip : null;
  return {
    ...blank,
    session_id: null, site_id: null, site_name: null, created_at: null, updated_at: null,
    ip: ip?.ip ?? null, ip_network: ip?.ip_network ?? null, isp: ip?.isp ?? null, country_code: ip?.country_code ?? null,
    city: ip?.city ?? null, timezone: ip?.timezone ?? null, risks: [...c.risks], risk_level: c.riskLevel,
  };
}

export function decideCheck(store: Store, d: DecisionInput): Decision {
  const fingerprint = d.session?.fingerprint ?? null;
  const active = (id: string) => d.rules.find((r) => r.rule_id === id && r.enabled);
  // Counted only for an enabled rule, and only as far as its threshold (a count past it decides
  // nothing more); the check itself is not stored yet, so it counts as one more.
  const enough = (r: Rule) => (r.threshold ?? 0) + 1;
  let deviceChecks: number | null = null;
  let deviceEmails: number | null = null;
  const repeat = fingerprint && active('repeat_device');
  if (fingerprint && repeat) {
    const since = formatMicros(previousQuarterStartMs(d.nowUs / 1000) * 1000);
    deviceChecks = store.checks.deviceChecks(d.site.site_id, fingerprint, since, enough(repeat)) + 1;
  }
  const emails = fingerprint && active('emails_per_device');
  if (fingerprint && emails) {
    const seen = store.checks.deviceEmails(d.site.site_id, fingerprint, enough(emails));
    deviceEmails = seen + (d.email && !store.checks.deviceHasEmail(d.site.site_id, fingerprint, d.email) ? 1 : 0);
  }
  let subject: FilterSubject | null = null;
  return decide(d.rules, {
    riskLevel: d.riskLevel,
    risks: d.risks,
    allowlisted: d.allowlisted,
    ipCountry: d.ip?.valid ? d.ip.country_code : null,
    siteCountry: d.site.country,
    deviceChecks,
    deviceEmails,
    matchesFilter: (rule) => {
      const node = d.filterOf(rule);
      // The session with every risk of the check: a label kept off the session (excluded_country of
      // an IP the session never had) still counts, as it does for the smart rules and the answer.
      subject ??= d.session ? { ...d.session, risks: d.risks, risk_level: d.riskLevel } : subjectFromCheck(d.blankSession(), d);
      return node !== null && matchesFilter(node, subject);
    },
  });
}

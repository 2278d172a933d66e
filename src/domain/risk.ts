// Risk labels of a session and the risk_level they add up to (contract §4).

import { RISK_LEVELS, type RiskLevel } from './session.js';

/** Every risk label the emulator emits, grouped by the level it implies (most severe first). */
export const RISK_LABELS = [
  // invalid
  'bot',
  'tor',
  'high_ip_frequency',
  // suspicious
  'anonymous',
  'vpn',
  'proxy',
  'hosting',
  'suspect_device',
  'invalid_probe',
  'ip_mismatch',
  'disposable_email',
  'poor_ip_reputation',
  // unwanted
  'crawler',
  'poor_referrer_reputation',
  'excluded_country',
] as const;
export type RiskLabel = (typeof RISK_LABELS)[number];

/** Level each label implies on its own; docs list this table. */
export const RISK_LABEL_LEVELS: Readonly<Record<RiskLabel, Exclude<RiskLevel, 'normal'>>> = {
  bot: 'invalid',
  tor: 'invalid',
  high_ip_frequency: 'invalid',
  anonymous: 'suspicious',
  vpn: 'suspicious',
  proxy: 'suspicious',
  hosting: 'suspicious',
  suspect_device: 'suspicious',
  invalid_probe: 'suspicious',
  ip_mismatch: 'suspicious',
  disposable_email: 'suspicious',
  poor_ip_reputation: 'suspicious',
  crawler: 'unwanted',
  poor_referrer_reputation: 'unwanted',
  excluded_country: 'unwanted',
};

/** Referrer domains (and their subdomains) with a poor reputation (reserved test value). */
export const POOR_REPUTATION_REFERRERS: readonly string[] = ['spam-referrer.test'];

/** Severity rank: normal < unwanted < suspicious < invalid. */
export const RISK_ORDER: Readonly<Record<RiskLevel, number>> = Object.fromEntries(
  RISK_LEVELS.map((l, i) => [l, i]),
) as Record<RiskLevel, number>;

export function compareRiskLevel(a: RiskLevel, b: RiskLevel): number {
  return RISK_ORDER[a] - RISK_ORDER[b];
}

/** True when `level` is at least as severe as `threshold`; an unrated (null) level never is. */
export function riskAtLeast(level: RiskLevel | null, threshold: RiskLevel): boolean {
  return level !== null && RISK_ORDER[level] >= RISK_ORDER[threshold];
}

function isRiskLabel(s: string): s is RiskLabel {
  return Object.prototype.hasOwnProperty.call(RISK_LABEL_LEVELS, s);
}

/** Most severe level among the labels; unknown labels count for nothing; allowlisted IPs are always normal. */
export function riskLevelOf(risks: readonly string[], opts: { allowlisted?: boolean } = {}): RiskLevel {
  if (opts.allowlisted) return 'normal';
  let level: RiskLevel = 'normal';
  for (const r of risks) {
    if (isRiskLabel(r) && RISK_ORDER[RISK_LABEL_LEVELS[r]] > RISK_ORDER[level]) level = RISK_LABEL_LEVELS[r];
  }
  return level;
}

export interface SessionRiskInput {
  ua: { bot: boolean; crawler: boolean; headless: boolean };
  ip: { tor: boolean; vpn: boolean; proxy: boolean; hosting: boolean; anonymous: boolean } | null;
  country_code: string | null;
  referrer_domain: string | null;
  excluded_countries: readonly string[];
  /** Labels from elsewhere, e.g. visitor checks: invalid_probe, ip_mismatch, disposable_email. */
  extra?: readonly string[];
}

function poorReferrer(domain: string | null): boolean {
  if (!domain) return false;
  const d = domain.trim().toLowerCase().replace(/\.$/, '');
  return POOR_REPUTATION_REFERRERS.some((bad) => d === bad || d.endsWith(`.${bad}`));
}

/** Known labels in RISK_LABELS order (most severe first), then unknown ones; no duplicates: the order a check answers with. */
export function orderRisks(labels: Iterable<string>): string[] {
  const set = new Set(labels);
  const known: string[] = RISK_LABELS.filter((l) => set.has(l));
  return [...known, ...[...set].filter((l) => !known.includes(l))];
}

/**
 * Risk labels of a session: known labels in RISK_LABELS order, then any unknown extras in the
 * order given; no duplicates. Deterministic so stored sessions and webhooks compare byte-for-byte.
 */
export function sessionRisks(input: SessionRiskInput): string[] {
  const found = new Set<string>();
  if (input.ua.bot || input.ua.headless) found.add('bot');
  if (input.ua.crawler) found.add('crawler');
  if (input.ip) {
    if (input.ip.tor) found.add('tor');
    if (input.ip.vpn) found.add('vpn');
    if (input.ip.proxy) found.add('proxy');
    if (input.ip.hosting) found.add('hosting');
    if (input.ip.anonymous) found.add('anonymous');
  }
  const country = input.country_code?.trim().toUpperCase();
  if (country && input.excluded_countries.some((c) => c.trim().toUpperCase() === country)) {
    found.add('excluded_country');
  }
  if (poorReferrer(input.referrer_domain)) found.add('poor_referrer_reputation');
  for (const r of input.extra ?? []) if (r) found.add(r);

  const known = RISK_LABELS.filter((l) => found.has(l));
  const unknown = [...found].filter((l) => !isRiskLabel(l));
  return [...known, ...unknown];
}

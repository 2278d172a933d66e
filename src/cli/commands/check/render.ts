import type { ChalkInstance } from 'chalk';
import type { z } from 'zod';
import type { CheckResult } from '../../../api/check.js';
import { riskColour } from '../../style.js';
import { probeIdProblem } from '../../../domain/ids.js';
import { printable } from '../../output.js';

/** A check result as the API answers it (its schema: src/api/check.ts; docs/checks.md). */
export type CheckView = z.output<typeof CheckResult>;

const join = (parts: Array<string | null | undefined | false>) => parts.filter(Boolean).join(' · ');
const flags = (s: Record<string, any>, names: string[]) => names.filter((n) => s[n] === true).join(' ');

function verdict(c: ChalkInstance, s: Record<string, any>, good = 'valid', bad = 'invalid'): string {
  if (!s.success) return c.yellow('could not be checked');
  return s.valid ? c.green(good) : c.red(bad);
}

// City, state and postal code, unless they were read from a one-line address1 that already shows them.
function place(s: Record<string, any>): Array<string | null> {
  const line = typeof s.address1 === 'string' ? s.address1.toUpperCase() : '';
  const inLine = (v: unknown) => typeof v !== 'string' || line.includes(v.toUpperCase());
  if (line && s.city && s.postal_code && inLine(s.city) && inLine(s.postal_code) && (inLine(s.state_code) || inLine(s.state))) return [];
  return [s.city, [s.state_code ?? s.state, s.postal_code].filter(Boolean).join(' ')];
}

const LINES: Record<string, (s: Record<string, any>, c: ChalkInstance) => string> = {
  device: (s, c) => s.valid
    ? join([
      verdict(c, s, 'valid probe'),
      `${s.probe_mins_elapsed} min old`,
      s.probe_ip_match === false ? c.red('IP mismatch') : s.probe_ip_match ? 'IP match' : null,
      [s.browser_name, s.browser_version].filter(Boolean).join(' ') || null,
      [s.os_family, s.os_version].filter(Boolean).join(' ') || null,
      s.device_type,
      [s.language, s.timezone].filter(Boolean).join(' ') || null,
      s.bot ? c.red(s.headless_browser ? 'bot (headless)' : 'bot') : null,
      s.crawler ? c.yellow('crawler') : null,
    ])
    : join([
      verdict(c, s, 'valid probe', 'invalid probe'),
      s.invalid_reason === 'malformed' && typeof s.probe_id === 'string' ? `malformed: ${printable(probeIdProblem(s.probe_id) ?? 'not a probe id')}` : s.invalid_reason,
      s.probe_id ? `"${printable(s.probe_id)}"` : null,
    ]),
  ip: (s, c) => join([
    s.ip || '""', s.valid === false ? c.red('not an IP') : null, s.bogon ? 'bogon (local/private)' : null,
    [s.country_code, s.city].filter(Boolean).join(' ') || null, s.isp,
    s.in_country === false ? 'abroad' : null, c.red(flags(s, ['tor', 'vpn', 'proxy', 'hosting', 'anonymous'])),
  ]),
  email: (s, c) => join([
    s.email ?? '""', verdict(c, s), s.normalized_email && s.normalized_email !== s.email ? `→ ${s.normalized_email}` : null,
    s.disposable ? c.red('disposable') : null, s.free ? 'free' : null, s.business ? 'business' : null,
    s.role ? 'role' : null, s.name_match === true ? 'name match' : s.name_match === false ? 'no name match' : null,
  ]),
  phone: (s, c) => join([s.phone ?? '""', verdict(c, s), s.type, s.country_code, s.in_country === false ? 'abroad' : null]),
  address: (s, c) => join([
    verdict(c, s),
    [s.address1, s.address2, ...place(s), s.country_code].filter(Boolean).join(', ') || null,
    s.postal_code_valid === false ? c.red('postal code invalid') : s.postal_code_valid ? 'postal code valid' : null,
    s.in_country === false ? 'abroad' : null,
  ]),
};

function outcomeText(r: CheckView, c: ChalkInstance): string {
  // Invalid traffic is blocked with no rule asking for it: the rules line alone would not say why.
  const byRule = r.rules?.some((m) => m.action === 'block' || m.action === 'block_review');
  const why = r.outcome === 'blocked' && !byRule && r.risk_level === 'invalid' ? ' (invalid traffic)' : '';
  const o = r.outcome === 'blocked' ? `${c.red('blocked')}${why}` : r.outcome === 'allowed' ? c.green('allowed') : 'neutral';
  return r.review ? `${o} · ${c.yellow('review')}` : o;
}

/** A built-in rule's id says what it is (`anonymous`); a custom rule's (`rule_…`) does not: its name does, the id follows. */
const ruleText = (m: NonNullable<CheckView['rules']>[number]): string => (m.type === 'custom' ? `${printable(m.name ?? '')} (${m.action}, ${m.id})` : `${m.id} (${m.action})`);

/** A section's text values made printable before the line colours its verdicts: they are what was sent, or a visitor's browser. */
const printableValues = (s: Record<string, any>): Record<string, any> =>
  Object.fromEntries(Object.entries(s).map(([k, v]) => [k, typeof v === 'string' && k !== 'probe_id' ? printable(v) : v]));

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/**
 * A section with what was sent in the fields the API left null (a phone it could not parse, a
 * country it could not read): the reader sees what the verdict is about, as the email line does.
 */
function withSent(name: string, s: Record<string, any>, sent: Record<string, unknown>): Record<string, any> {
  if (name === 'phone') return { ...s, phone: s.phone ?? text(sent.phone) };
  if (name !== 'address' || !sent.address || typeof sent.address !== 'object') return s;
  const a = sent.address as Record<string, unknown>;
  const fill = (key: string, from = key) => s[key] ?? text(a[from]);
  return {
    ...s, address1: fill('address1'), address2: fill('address2'), city: fill('city'), postal_code: fill('postal_code'),
    state: fill('state'), country_code: s.country_code ?? s.country_name ?? text(a.country),
  };
}

/** One line for the verdict, the site's decision, then one per section; `sent` is the request body. */
export function renderCheck(r: CheckView, c: ChalkInstance, sent: Record<string, unknown> = {}): string[] {
  const lines = [
    `${c.bold(r.id)}  ${c.bold(riskColour(c, r.risk_level))}  ${r.risks.length ? `risks: ${r.risks.join(', ')}` : 'no risks'}`,
    `${'outcome'.padEnd(8)} ${outcomeText(r, c)}`,
    `${'rules'.padEnd(8)} ${r.rules?.length ? r.rules.map(ruleText).join(', ') : c.dim('none matched')}`,
    `${'session'.padEnd(8)} ${r.session_id ?? c.dim('none')}`,
  ];
  // The caller's own id for the check, only when one was sent: it is what ties the line to an order or signup.
  if (r.external_id != null) lines.push(`${'external'.padEnd(8)} ${r.external_id === '' ? '""' : printable(String(r.external_id))}`);
  for (const name of ['device', 'ip', 'email', 'phone', 'address'] as const) {
    const s = r[name];
    lines.push(`${name.padEnd(8)} ${s ? LINES[name](printableValues(withSent(name, s, sent)), c) : c.dim('not sent')}`);
  }
  return lines;
}

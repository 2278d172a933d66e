import { describe, expect, it } from 'vitest';
import { renderRules } from '../../../src/cli/commands/rules/render.js';
import { SMART_RULES, type Rule } from '../../../src/domain/rules.js';

const base = { site_id: 'site_1', filter: null, created_at: '2026-11-21T09:00:00.000000' };
const rules: Rule[] = [
  { ...base, rule_id: 'allowlist', type: 'allowlist', name: 'IP allowlist', action: 'allow', threshold: null, enabled: true },
  ...SMART_RULES.map((d): Rule => ({ ...base, rule_id: d.id, type: 'smart', name: d.name, action: d.action, threshold: d.threshold, enabled: d.enabled })),
  { ...base, rule_id: 'rule_1', type: 'custom', name: 'Paris', filter: 'city = Paris', action: 'block', threshold: null, enabled: true },
];
const row = (out: string, id: string) => out.split('\n').find((l) => l.startsWith(`${id} `)) ?? '';

describe('vtr rules list', () => {
  it('rules list: the condition column says what each built-in rule matches, the allowlist with its entries', () => {
    const out = renderRules(rules, { ip_allowlist: ['203.0.113.0/24', '192.0.2.7'], country: 'US' });
    expect(row(out, 'allowlist')).toContain('IP in 203.0.113.0/24, 192.0.2.7');
    expect(row(out, 'bot')).toContain('risks contain bot');
    expect(row(out, 'anonymous')).toContain('risks contain anonymous, vpn, proxy or tor');
    expect(row(out, 'location')).toContain('IP country known and not US');
    expect(row(out, 'repeat_device')).toContain('device in more than 10 checks this and last quarter');
    expect(row(out, 'emails_per_device')).toContain('more than 3 emails with the device');
    expect(row(out, 'rule_1')).toContain('city = Paris');
  });

  it('rules list: an empty allowlist, and location on a site without a country, say they match nothing', () => {
    const out = renderRules(rules, { ip_allowlist: [], country: null });
    expect(row(out, 'allowlist')).toContain('nothing: the site\'s ip_allowlist is empty');
    expect(row(out, 'location')).toContain('nothing: the site has no country');
  });
});

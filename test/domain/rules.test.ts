import { describe, expect, it } from 'vitest';
import { actionsTaken, decide, mergeActions, previousQuarterStartMs, SMART_RULES, type Rule, type RuleSubject } from '../../src/domain/rules.js';

const at = '2026-01-01T00:00:00.000000';
const smart = (id: string, over: Partial<Rule> = {}): Rule => {
  const d = SMART_RULES.find((r) => r.id === id)!;
  return { rule_id: id, site_id: 's', type: 'smart', name: d.name, filter: null, action: d.action, threshold: d.threshold, enabled: d.enabled, created_at: at, ...over };
};
const allowlist: Rule = { rule_id: 'allowlist', site_id: 's', type: 'allowlist', name: 'IP allowlist', filter: null, action: 'allow', threshold: null, enabled: true, created_at: at };
const custom = (id: string, action: Rule['action'], hit: boolean): Rule & { hit: boolean } => ({
  rule_id: id, site_id: 's', type: 'custom', name: id, filter: 'x', action, threshold: null, enabled: true, created_at: at, hit,
});
const defaults = () => [allowlist, ...SMART_RULES.map((r) => smart(r.id))];

function subject(over: Partial<RuleSubject> = {}): RuleSubject {
  return {
    riskLevel: 'normal', risks: [], allowlisted: false, ipCountry: null, siteCountry: 'US', deviceChecks: null, deviceEmails: null,
    matchesFilter: (rule) => (rule as Rule & { hit?: boolean }).hit === true,
    ...over,
  };
}

describe('decide', () => {
  it('decide: clean traffic matches nothing and is neutral', () => {
    expect(decide(defaults(), subject())).toEqual({ outcome: 'neutral', review: false, rules: [] });
  });

  it('decide: a bot is blocked by the bot rule', () => {
    const d = decide(defaults(), subject({ riskLevel: 'invalid', risks: ['bot'] }));
    expect(d).toEqual({ outcome: 'blocked', review: false, rules: [{ id: 'bot', type: 'smart', name: 'Bots', action: 'block' }] });
  });

  it('decide: anonymous traffic (vpn, proxy, tor, anonymous) goes to review, neutral', () => {
    for (const risk of ['anonymous', 'vpn', 'proxy', 'tor']) {
      const d = decide(defaults(), subject({ riskLevel: 'suspicious', risks: [risk] }));
      expect(d.rules.map((r) => r.id)).toEqual(['anonymous']);
      expect(d).toMatchObject({ outcome: 'neutral', review: true });
    }
  });

  it('decide: invalid traffic is blocked even when no rule blocks it', () => {
    const d = decide(defaults(), subject({ riskLevel: 'invalid', risks: ['tor', 'anonymous'] }));
    expect(d).toMatchObject({ outcome: 'blocked', review: true });
    expect(d.rules.map((r) => r.id)).toEqual(['anonymous']);
  });

  it('decide: allow wins over block, and allowlisted invalid traffic is allowed', () => {
    const d = decide(defaults(), subject({ riskLevel: 'invalid', risks: ['bot'], allowlisted: true }));
    expect(d.outcome).toBe('allowed');
    expect(d.rules.map((r) => r.id)).toEqual(['allowlist', 'bot']);
    const custom1 = decide([custom('rule_a', 'block', true), custom('rule_b', 'allow_review', true)], subject());
    expect(custom1).toMatchObject({ outcome: 'allowed', review: true });
  });

  it('decide: block_review blocks and asks for review', () => {
    expect(decide([custom('rule_a', 'block_review', true)], subject())).toMatchObject({ outcome: 'blocked', review: true });
  });

  it('decide: disabled rules and custom rules whose filter misses do not match', () => {
    const rules = [smart('bot', { enabled: false }), custom('rule_a', 'block', false), custom('rule_b', 'review', true)];
    expect(decide(rules, subject({ risks: ['bot'] })).rules.map((r) => r.id)).toEqual(['rule_b']);
  });

  it('decide: location matches a known country other than the site\'s, only when enabled', () => {
    expect(decide(defaults(), subject({ ipCountry: 'DE' })).rules).toEqual([]);
    const rules = [smart('location', { enabled: true })];
    expect(decide(rules, subject({ ipCountry: 'DE' })).rules.map((r) => r.id)).toEqual(['location']);
    expect(decide(rules, subject({ ipCountry: 'US' })).rules).toEqual([]);
    expect(decide(rules, subject({ ipCountry: null })).rules).toEqual([]);
  });

  it('decide: repeat_device and emails_per_device match above their thresholds', () => {
    const rules = [smart('repeat_device', { enabled: true }), smart('emails_per_device', { enabled: true, action: 'block' })];
    expect(decide(rules, subject({ deviceChecks: 10, deviceEmails: 3 })).rules).toEqual([]);
    const d = decide(rules, subject({ deviceChecks: 11, deviceEmails: 4 }));
    expect(d.rules.map((r) => r.id)).toEqual(['repeat_device', 'emails_per_device']);
    expect(d).toMatchObject({ outcome: 'blocked', review: true });
    expect(decide(rules, subject({ deviceChecks: null, deviceEmails: null })).rules).toEqual([]);
  });
});

describe('actions', () => {
  it('actionsTaken: the matched actions in order, plus block for invalid traffic no rule blocked', () => {
    expect(actionsTaken({ outcome: 'blocked', review: true, rules: [{ id: 'anonymous', type: 'smart', name: 'a', action: 'review' }] })).toEqual(['review', 'block']);
    expect(actionsTaken({ outcome: 'blocked', review: false, rules: [{ id: 'bot', type: 'smart', name: 'b', action: 'block' }] })).toEqual(['block']);
    expect(actionsTaken({ outcome: 'neutral', review: false, rules: [] })).toEqual([]);
  });

  it('mergeActions: distinct, in the order first taken', () => {
    expect(mergeActions(['review'], ['block', 'review', 'allow'])).toEqual(['review', 'block', 'allow']);
  });
});

describe('quarters', () => {
  it('previousQuarterStartMs: the first day of the quarter before the current one (UTC)', () => {
    expect(new Date(previousQuarterStartMs(Date.UTC(2026, 10, 25))).toISOString()).toBe('2026-07-01T00:00:00.000Z');
    expect(new Date(previousQuarterStartMs(Date.UTC(2026, 1, 3))).toISOString()).toBe('2025-10-01T00:00:00.000Z');
    expect(new Date(previousQuarterStartMs(Date.UTC(2026, 3, 1))).toISOString()).toBe('2026-01-01T00:00:00.000Z');
  });
});

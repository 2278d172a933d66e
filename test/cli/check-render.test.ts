import { describe, expect, it } from 'vitest';
import { Chalk } from 'chalk';
import { renderCheck, type CheckView } from '../../src/cli/commands/check/render.js';

const plain = new Chalk({ level: 0 });
const PROBE = 'prb_8DvtaYeI0zKef05clgAJtzXntPcfVGWe';
const withProbe = (probe_id: string) => ({
  id: 'chk_1', created_at: 't', session_id: null, risk_level: 'suspicious', risks: ['invalid_probe'], outcome: 'neutral', review: false, rules: [],
  device: { success: true, valid: false, probe_id, invalid_reason: 'malformed' }, ip: null, email: null, phone: null, address: null,
}) as unknown as CheckView;
const deviceLine = (probe: string) => renderCheck(withProbe(probe), plain).find((l) => l.startsWith('device'))!;

describe('renderCheck', () => {
  it('check: a probe id with an invisible character pasted into it says so, naming the character and where it is', () => {
    const line = deviceLine(`${PROBE.slice(0, 10)}\u200b${PROBE.slice(10)}`);
    expect(line).toContain('an invisible character (U+200B) at position 11');
  });

  it('check: a malformed probe id says what a probe id looks like and what this one has wrong', () => {
    expect(deviceLine(PROBE.slice(0, 20))).toContain('16 characters after prb_, not 32');
    expect(deviceLine(`ses_${PROBE.slice(4)}`)).toContain('does not start with prb_');
    expect(deviceLine(`${PROBE.slice(0, 10)} ${PROBE.slice(11)}`)).toContain('a space at position 11');
  });
});

describe('renderCheck: values the API could not read', () => {
  const base = { id: 'chk_1', created_at: 't', session_id: null, risk_level: 'normal', risks: [], outcome: 'neutral', review: false, rules: [], device: null, ip: null, email: null };
  const line = (r: object, sent: Record<string, unknown>, name: string) => renderCheck({ ...base, phone: null, address: null, ...r } as unknown as CheckView, plain, sent).find((l) => l.startsWith(name))!;

  it('check: a phone the API could not parse shows the number that was sent, not "-"', () => {
    const phone = { success: true, valid: false, phone: null, type: null, country_code: null, in_country: null };
    expect(line({ phone }, { phone: 'abc' }, 'phone')).toBe('phone    abc · invalid');
  });

  it('check: an address whose country the API could not read shows the country that was sent', () => {
    const address = { success: true, valid: false, address1: null, address2: null, city: 'Paris', state: null, state_code: null, country_code: null, postal_code: null, postal_code_valid: null, in_country: null };
    expect(line({ address }, { address: { city: 'Paris', country: 'Atlantis' } }, 'address')).toBe('address  invalid · Paris, Atlantis');
  });

  it('check: a normalised value the API answers is shown over what was sent', () => {
    const phone = { success: true, valid: true, phone: '+14155550100', type: 'mobile', country_code: 'US', in_country: null };
    expect(line({ phone }, { phone: '(415) 555-0100' }, 'phone')).toBe('phone    +14155550100 · valid · mobile · US');
  });
});

describe('renderCheck: text from visitors and requests', () => {
  const red = new Chalk({ level: 1 });
  it('check: control characters in what was sent, a probe\'s browser or a rule name are shown escaped; the verdict keeps its colour', () => {
    const esc = '\u001b[32m';
    const r = {
      id: 'chk_1', created_at: 't', session_id: null, risk_level: 'normal', risks: [], outcome: 'neutral', review: false,
      rules: [{ id: 'rule_1', type: 'custom', name: `Rule ${esc}`, action: 'review' }],
      device: { success: true, valid: true, probe_mins_elapsed: 1, probe_ip_match: true, browser_name: `Chrome${esc}`, browser_version: '1', language: 'en', timezone: 'UTC' },
      ip: null, email: { success: true, valid: false, email: `a${esc}@x.test` }, phone: null, address: null,
    } as unknown as CheckView;
    const text = renderCheck(r, plain).join('\n');
    expect(text).not.toContain('\u001b');
    expect(text).toContain('Rule \\u001b[32m (review, rule_1)');
    expect(text).toContain('Chrome\\u001b[32m 1');
    expect(text).toContain('a\\u001b[32m@x.test');
    expect(renderCheck(r, red).join('\n')).toContain(red.red('invalid'));
  });
});

describe('renderCheck: a probe id with a control character', () => {
  it('check: a malformed probe id with a tab says so, and shows the id escaped', () => {
    const line = deviceLine(`${PROBE.slice(0, 10)}\t${PROBE.slice(11)}`);
    expect(line).not.toContain('\t');
    expect(line).toContain(`"${PROBE.slice(0, 10)}\\t${PROBE.slice(11)}"`);
  });
});

describe('renderCheck: the decision', () => {
  const base = { id: 'chk_1', created_at: 't', session_id: null, risk_level: 'invalid', risks: ['tor', 'anonymous'], outcome: 'blocked', review: true, device: null, ip: null, email: null, phone: null, address: null };
  const outcome = (r: object) => renderCheck({ ...base, ...r } as unknown as CheckView, plain).find((l) => l.startsWith('outcome'))!;

  it('check: a block that no matched rule asked for says it is invalid traffic, always blocked', () => {
    expect(outcome({ rules: [{ id: 'anonymous', type: 'smart', name: 'Anonymous traffic', action: 'review' }] })).toBe('outcome  blocked (invalid traffic) · review');
    expect(outcome({ rules: [], review: false })).toBe('outcome  blocked (invalid traffic)');
  });

  it('check: a block a rule asked for names no other reason: the rules line shows it', () => {
    expect(outcome({ rules: [{ id: 'bot', type: 'smart', name: 'Bots', action: 'block' }], review: false })).toBe('outcome  blocked');
    expect(outcome({ rules: [{ id: 'rule_1', type: 'custom', name: 'x', action: 'block_review' }] })).toBe('outcome  blocked · review');
  });
});

describe('renderCheck: the external id', () => {
  const base = { id: 'chk_1', created_at: 't', session_id: null, risk_level: 'normal', risks: [], outcome: 'neutral', review: false, rules: [], device: null, ip: null, email: null, phone: null, address: null };
  const lines = (external_id: unknown) => renderCheck({ ...base, external_id } as unknown as CheckView, plain);

  it('check: an external id that was sent is shown after the session, as typed (a string\'s zeros kept, control characters escaped)', () => {
    const shown = lines('007');
    expect(shown[shown.findIndex((l) => l.startsWith('session')) + 1]).toBe('external 007');
    expect(lines(12345)).toContain('external 12345');
    expect(lines('a\tb')).toContain('external a\\tb');
    expect(lines('')).toContain('external ""');
  });

  it('check: no external id sent, no line for it', () => {
    expect(lines(null).some((l) => l.startsWith('external'))).toBe(false);
    expect(lines(undefined).some((l) => l.startsWith('external'))).toBe(false);
  });
});

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

// A visitor check answers the same result each time it is asked the same thing, and records it: the
// stored check is what the API answered, for every kind of input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator } from '../../src/emulator.js';
import type { CheckInput } from '../../src/checks/run-check.js';
import { testValues } from '../../src/domain/test-values.js';

let emu: ReturnType<typeof createEmulator>;
beforeAll(() => {
  emu = createEmulator({ dbPath: ':memory:' });
});
afterAll(async () => {
  await emu.close();
});

function inputs(probe: string): CheckInput[] {
  const out: CheckInput[] = [
    {},
    { ip: '192.0.2.10' },
    { ip: 'not an ip', email: 'nobody', phone: '12', address: {} },
    { probe_id: probe, ip: '192.0.2.10', email: 'Jane.Doe+shop@example.com', name: 'Jane Doe', phone: '(212) 664-7665',
      address: { address1: '30 Rockefeller Plaza', city: 'New York', state: 'New York', country: 'United States', postal_code: '10112' } },
    { probe_id: probe },
    { probe_id: 'prb_malformed' },
    { email: 'a"b\\c\u2028@example.com', name: 'Zoë "quoted"', address: { address1: 'Straße 1\u0000', city: null, country: 'DE' } },
    { phone: '   ', email: '', address: { address1: 'x'.repeat(400) } },
  ];
  for (const v of testValues()) {
    const value = v.example || v.value;
    if (v.kind === 'ip') out.push({ ip: value });
    if (v.kind === 'email') out.push({ email: value });
    if (v.kind === 'phone') out.push({ phone: value });
    if (v.kind === 'address') out.push({ address: { address1: value } });
    if (v.kind === 'probe_id') out.push({ probe_id: value });
  }
  return out;
}

describe('visitor check JSON', () => {
  it('check: the stored check is the answer, and a repeated check answers the same sections', () => {
    const site = emu.bootstrap!.site;
    const { probe_id } = emu.deps.sessions.recordPageView(site, { url: 'https://shop.test/', ip: '203.0.113.9', fingerprint: 'fp_json' });
    const all = inputs(probe_id);
    expect(all.length).toBeGreaterThan(15);
    for (const input of all) {
      const first = emu.deps.checks.run(site, structuredClone(input));
      expect(emu.deps.checks.get(first.id), JSON.stringify(input)).toEqual({ ...JSON.parse(JSON.stringify(first)), site_id: site.site_id });
      const again = emu.deps.checks.run(site, structuredClone(input));
      expect(again, JSON.stringify(input)).toEqual({ ...first, id: again.id, created_at: again.created_at });
    }
  });

  it('check: a caller changing an answer does not change the next one', () => {
    const site = emu.bootstrap!.site;
    const { probe_id } = emu.deps.sessions.recordPageView(site, { url: 'https://shop.test/', ip: '203.0.113.9', fingerprint: 'fp_frozen' });
    const input: CheckInput = { probe_id, ip: '192.0.2.10', email: 'jane@example.com', phone: '(212) 664-7665', address: { address1: '1 Main St', country: 'US' } };
    const first = emu.deps.checks.run(site, structuredClone(input));
    const copy = structuredClone(first);
    first.ip!.country_code = 'XX';
    first.email!.valid = false;
    first.device!.language = 'xx';
    first.risks.push('changed');
    const second = emu.deps.checks.run(site, structuredClone(input));
    expect(second).toEqual({ ...copy, id: second.id, created_at: second.created_at });
  });
});

describe('visitor check device section', () => {
  it('check: the device section follows the probe\'s session, the sent IP and the clock, repeated or not', async () => {
    const manual = createEmulator({ dbPath: ':memory:', clock: 'manual' });
    try {
      const site = manual.bootstrap!.site;
      const { probe_id, session } = manual.deps.sessions.recordPageView(site, { url: 'https://shop.test/', ip: '203.0.113.9', fingerprint: 'fp_device' });
      const device = (ip: string) => {
        return manual.deps.checks.run(site, { probe_id, ip }).device!;
      };
      expect(device('203.0.113.9')).toMatchObject({ valid: true, probe_mins_elapsed: 0, probe_ip_match: true, language: session.language });
      expect(device('203.0.113.9')).toMatchObject({ probe_mins_elapsed: 0, probe_ip_match: true });
      expect(device('198.51.100.7')).toMatchObject({ probe_ip_match: false });
      manual.clock.advance(125_000);
      expect(device('203.0.113.9')).toMatchObject({ probe_mins_elapsed: 2, probe_ip_match: true });
      // The session changes (this connection's write): the next check reads it again.
      const rec = manual.store.sessions.get(session.session_id)!;
      manual.store.sessions.update({ ...rec, session: { ...rec.session, language: 'xx-TEST', timezone: 'Etc/Test' } });
      expect(device('203.0.113.9')).toMatchObject({ language: 'xx-TEST', timezone: 'Etc/Test', probe_mins_elapsed: 2 });
    } finally {
      await manual.close();
    }
  });
});

describe('visitor check ip with a port', () => {
  it('check: an ip sent with a port or in brackets is the address it carries, for the ip section, the probe and the rules', () => {
    const site = emu.deps.sites.create({ name: 'ports', country: 'US' });
    const { probe_id } = emu.deps.sessions.recordPageView(site, { url: 'https://shop.test/', ip: '203.0.113.9', fingerprint: 'fp_port' });
    for (const ip of ['203.0.113.9:443', '::ffff:203.0.113.9', '::ffff:203.0.113.9:443', '[::ffff:203.0.113.9]:8443']) {
      const r = emu.deps.checks.run(site, { probe_id, ip });
      expect(r.ip, ip).toMatchObject({ valid: true, ip: '203.0.113.9', version: 4, tor: true, country_code: 'DE' });
      expect(r.device?.probe_ip_match, ip).toBe(true);
      expect(r.risks, ip).not.toContain('ip_mismatch');
    }
    for (const ip of ['[2001:db8::1]', '[2001:db8::1]:8443']) {
      expect(emu.deps.checks.run(site, { ip }).ip, ip).toMatchObject({ valid: true, ip: '2001:db8::1', version: 6, country_code: 'FR' });
    }
    expect(emu.deps.checks.run(site, { ip: '2001:db8::1:443' }).ip).toMatchObject({ valid: true, ip: '2001:db8::1:443' });

    const allowing = emu.deps.sites.update(site.site_id, { ip_allowlist: ['203.0.113.0/24'] });
    const r = emu.deps.checks.run(allowing, { ip: '203.0.113.9:443' });
    expect(r).toMatchObject({ risk_level: 'normal', outcome: 'allowed' });
    expect(r.rules.map((m) => m.id)).toContain('allowlist');
  });
});

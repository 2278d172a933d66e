// Every field a visitor check answers is declared in the OpenAPI document (real answers of a
// running emulator), so generated clients and the library's types see them all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/index.js';

let emu: RunningEmulator;
let doc: Record<string, any>;
let origin: string;

beforeAll(async () => {
  emu = await startEmulator();
  origin = new URL(emu.baseUrl).origin;
  doc = (await (await fetch(`${emu.baseUrl}/openapi.json`)).json()) as Record<string, any>;
});
afterAll(async () => {
  await emu?.close();
});

describe('what a check answers is what the document declares', () => {
  it('openapi: every field of every section of a check answer is a declared property of its schema', async () => {
    const pv = await fetch(`${origin}/_vtr/agent/pageview`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ site_key: emu.site.siteKey, url: 'https://example.com/signup' }),
    });
    const { probe_id } = (await pv.json()) as { probe_id: string };
    const bodies = [
      { probe_id, ip: '192.0.2.44', email: 'Jane.Doe+x@mailinator.com', name: 'Jane Doe', phone: '(212) 664-7665',
        address: { address1: '1 Main St', city: 'New York', state: 'New York', country: 'United States', postal_code: '10001' } },
      { probe_id: 'garbage', ip: 'not an ip', email: 'nope', phone: 'nope', address: { country: 'Atlantis' } },
    ];
    const schemas = { device: 'DeviceCheck', ip: 'IpCheck', email: 'EmailCheck', phone: 'PhoneCheck', address: 'AddressCheck' } as const;
    for (const b of bodies) {
      const res = await fetch(`${emu.baseUrl}/event`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ secret_key: emu.site.secretKey, ...b }) });
      expect(res.status).toBe(200);
      const result = (await res.json()) as Record<string, Record<string, unknown>>;
      for (const [section, name] of Object.entries(schemas)) {
        const declared = Object.keys(doc.components.schemas[name].properties);
        expect(Object.keys(result[section]), section).toEqual(declared);
        expect(doc.components.schemas[name].required, section).toEqual(declared);
      }
    }
  });
});

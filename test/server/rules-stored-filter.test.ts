// A rule whose stored filter no longer parses (a file written by an older vtr, which took filters
// this one refuses) matches nothing: visitor checks go on answering, as with such a saved view.
import { afterAll, describe, expect, it } from 'vitest';
import { createEmulator } from '../../src/emulator.js';

const emu = createEmulator({ dbPath: ':memory:' });
afterAll(() => emu.close());

describe('rules: a stored filter that no longer parses', () => {
  it('check: answers 200; the rule matches nothing, the others still apply', async () => {
    const site = emu.bootstrap!.site;
    const check = async () => {
      const res = await emu.app.request('/api/v1/event', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ secret_key: site.secret_key, ip: '198.51.100.7' }) });
      return { status: res.status, body: (await res.json()) as { outcome: string; rules: Array<{ id: string }> } };
    };
    const made = await emu.app.request(`/_vtr/api/sites/${site.site_id}/rules`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'hosting', filter: 'ip = 198.51.100.7', action: 'block' }),
    });
    expect(made.status).toBe(201);
    expect((await check()).body.outcome).toBe('blocked');
    const stored = emu.store.rules.forSite(site.site_id).find((r) => r.type === 'custom')!;
    emu.store.rules.save({ ...stored, filter: 'created_at > yesterday' });
    const after = await check();
    expect(after.status).toBe(200);
    expect(after.body.outcome).toBe('neutral');
    expect(after.body.rules.map((r) => r.id)).toEqual(['anonymous']);
  });
});

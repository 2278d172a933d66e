// emu.site names the default site's keys as they are now: rotated through the management API (as a
// test of the "old key refused" path does), emu.check() and the clients go on with the new ones.
import { describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/index.js';

describe('library emu.site', () => {
  it('keys rotate: emu.site takes the new keys and emu.check() goes on working; the old key is refused', async () => {
    const emu = await startEmulator({ listen: false });
    try {
      const old = { ...emu.site };
      const rotated = await emu.client.admin<{ site_key: string; secret_key: string }>('POST', `/sites/${old.siteId}/keys/rotate`);
      expect(emu.site).toEqual({ ...old, siteKey: rotated.site_key, secretKey: rotated.secret_key });
      expect((await emu.check({ ip: '192.0.2.1' })).outcome).toBe('neutral');
      const refused = await emu.fetch('/api/v1/event', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ secret_key: old.secretKey }) });
      expect(refused.status).toBe(401);
    } finally {
      await emu.close();
    }
  });

  it('keys rotate on another site: emu.site is unchanged', async () => {
    const emu = await startEmulator({ listen: false });
    try {
      const before = { ...emu.site };
      const other = await emu.client.admin<{ site_id: string }>('POST', '/sites', { body: { name: 'other' } });
      await emu.client.admin('POST', `/sites/${other.site_id}/keys/rotate`);
      expect(emu.site).toEqual(before);
    } finally {
      await emu.close();
    }
  });
});

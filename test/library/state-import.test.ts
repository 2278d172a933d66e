// Loading fixed data into a library emulator (PUT /_vtr/api/state, as docs/library.md shows): the
// helpers and emu.site follow the default site of the loaded state.
import { describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/index.js';

/** A state file written by another emulator, with one session on its default site. */
async function fixture(): Promise<{ state: unknown; site: RunningEmulator['site']; sessionId: string }> {
  const other = await startEmulator({ listen: false });
  try {
    const s = await other.sessions.create({ ip: '192.0.2.7' });
    return { state: await other.client.admin('GET', '/state'), site: { ...other.site }, sessionId: s.session_id };
  } finally {
    await other.close();
  }
}

describe('library state import', () => {
  it('PUT /state: emu.site, the helpers and the raw client take the loaded default site and its keys', async () => {
    const { state, site, sessionId } = await fixture();
    const emu = await startEmulator();
    try {
      await emu.client.admin('PUT', '/state', { body: state });
      expect(emu.site).toEqual(site);
      expect((await emu.sessions.list()).map((s) => s.session_id)).toEqual([sessionId]);
      expect((await emu.sessions.get(sessionId)).session_id).toBe(sessionId);
      expect((await emu.check({ ip: '192.0.2.1' })).outcome).toBe('neutral');
      expect((await emu.client.api<{ session_id: string }>('GET', `/session/${sessionId}`)).session_id).toBe(sessionId);
      expect((await emu.sessions.create({})).site_id).toBe(site.siteId);
    } finally {
      await emu.close();
    }
  });

  it('reset after an import: the keys emu.site has then come back', async () => {
    const { state, site } = await fixture();
    const emu = await startEmulator({ listen: false });
    try {
      await emu.client.admin('PUT', '/state', { body: state });
      await emu.reset();
      expect(emu.site).toEqual(site);
      expect(await emu.sessions.list()).toEqual([]);
      expect((await emu.check({})).outcome).toBe('neutral');
    } finally {
      await emu.close();
    }
  });

  it('reset keeps the keys startEmulator gave, whatever reset does inside', async () => {
    const emu = await startEmulator({ listen: false });
    try {
      const before = { ...emu.site };
      await emu.reset();
      expect(emu.site).toEqual(before);
      expect((await emu.check({})).outcome).toBe('neutral');
    } finally {
      await emu.close();
    }
  });
});

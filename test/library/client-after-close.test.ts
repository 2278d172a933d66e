// emu.client after emu.close(): it speaks HTTP to the port the emulator had, which another emulator
// may have taken since; it says the emulator is closed, as the helpers do, and sends nothing.
import { describe, expect, it } from 'vitest';
import { ConnectionError, startEmulator } from '../../src/index.js';

describe('library client after close', () => {
  it('client: after close, admin, api, check, raw and download reject saying the emulator is closed after emu.client and the request asked for, as the helpers name themselves', async () => {
    for (const listen of [true, false]) {
      const emu = await startEmulator({ listen });
      await emu.close();
      const calls: [() => Promise<unknown>, string, boolean][] = [
        [() => emu.client.admin('GET', '/sites'), 'emu.client.admin: GET /sites', false],
        [() => emu.client.api('GET', '/session/ses_x'), 'emu.client.api: GET /session/ses_x', false],
        [() => emu.client.check({}), 'emu.client.check: POST /event', true],
        [() => emu.client.raw('DELETE', `${emu.client.origin}/_vtr/api/webhooks/wh_x`), `emu.client.raw: DELETE ${emu.client.origin}/_vtr/api/webhooks/wh_x`, true],
        [() => emu.client.download('/state'), 'emu.client.download: GET /state', false],
      ];
      for (const [call, named, write] of calls) {
        const err = await call().catch((e: unknown) => e);
        expect(err).toBeInstanceOf(ConnectionError);
        expect((err as Error).message).toBe(`${named}: this emulator is closed (emu.close() was called): start another with startEmulator()`);
        expect((err as ConnectionError).write).toBe(write);
      }
    }
  });

  it('client: before close, its answers and the API\'s errors are as the client gives them, not renamed', async () => {
    const emu = await startEmulator({ listen: false });
    try {
      await expect(emu.client.admin('GET', '/sites')).resolves.toHaveLength(1);
      await expect(emu.client.api('GET', '/session/ses_nope')).rejects.toThrow(/^session not found/);
    } finally {
      await emu.close();
    }
  });

  it('client: after close, a request is not answered by another emulator that took the same port', async () => {
    const first = await startEmulator();
    const port = Number(new URL(first.baseUrl).port);
    await first.close();
    const second = await startEmulator({ port });
    try {
      await expect(first.client.admin('GET', '/sites')).rejects.toThrow(/this emulator is closed/);
    } finally {
      await second.close();
    }
  });
});

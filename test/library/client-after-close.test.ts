// emu.client after emu.close(): it speaks HTTP to the port the emulator had, which another emulator
// may have taken since; it says the emulator is closed, as the helpers do, and sends nothing.
import { describe, expect, it } from 'vitest';
import { ConnectionError, startEmulator } from '../../src/index.js';

describe('library client after close', () => {
  it('client: after close, admin, api and check reject saying the emulator is closed, not that its port cannot be reached', async () => {
    const emu = await startEmulator();
    await emu.close();
    for (const call of [() => emu.client.admin('GET', '/sites'), () => emu.client.api('GET', '/session/ses_x'), () => emu.client.check({})]) {
      const err = await call().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConnectionError);
      expect((err as Error).message).toBe('this emulator is closed (emu.close() was called): start another with startEmulator()');
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

// A suite that fakes timers and Date before vtr is loaded (a setup file calling vi.useFakeTimers()):
// the emulator still runs its retries and waits on real time.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

vi.useFakeTimers({ now: new Date('2030-01-01T00:00:00Z') });
const { startEmulator } = await import('../../src/index.js');

describe('library loaded under faked timers', () => {
  let receiver: Server;
  let url = '';
  beforeAll(async () => {
    receiver = createServer((_req, res) => res.writeHead(500).end());
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  });
  afterAll(() => {
    vi.useRealTimers();
    receiver?.close();
  });

  it('startEmulator: retries run and waitFor ends on real time when timers were faked before vtr was imported', async () => {
    const emu = await startEmulator({ listen: false, retryBaseMs: 20 });
    try {
      await emu.views.create({ name: 'suspicious', filter: 'risk_level = suspicious' });
      await emu.webhooks.create(url);
      const s = await emu.sessions.create({ ip: '198.51.100.4' });
      expect(s.created_at.startsWith('2030-')).toBe(false);
      const ev = await emu.webhooks.waitFor({ sessionId: s.session_id, status: 'failed', timeoutMs: 3000 });
      expect(ev.attempts).toHaveLength(6);
      await expect(emu.webhooks.waitFor({ sessionId: s.session_id, status: 'delivered', timeoutMs: 100 })).rejects.toThrow(/within 100 ms/);
    } finally {
      await emu.close();
    }
  }, 8000);
});

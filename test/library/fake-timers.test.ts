// A test suite that fakes timers for its own code (vi.useFakeTimers()) and runs an emulator in the
// same process: the emulator's writes, deliveries and waits keep running on real time.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/index.js';

describe('library under faked timers', () => {
  let emu: RunningEmulator;
  // Answers at once: the shared test receiver answers on a timer, which the test fakes.
  let receiver: Server;
  let url = '';
  const deliveries: string[] = [];
  beforeAll(async () => {
    emu = await startEmulator();
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        deliveries.push(body);
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  });
  afterEach(async () => {
    vi.useRealTimers();
    await emu.reset();
  });
  afterAll(async () => {
    await emu?.close();
    receiver?.close();
  });

  it('startEmulator: writes, webhook deliveries and waitFor go on while the suite fakes timers and Date', async () => {
    vi.useFakeTimers({ now: new Date('2030-01-01T00:00:00Z') });
    await emu.views.create({ name: 'suspicious', filter: 'risk_level = suspicious' });
    await emu.webhooks.create(url);
    const s = await emu.sessions.create({ ip: '198.51.100.4', url: 'https://shop.test/?gclid=abc' });
    // The emulator's clock is its own: the faked Date does not leak into its timestamps.
    expect(s.created_at.startsWith('2030-')).toBe(false);
    const ev = await emu.webhooks.waitFor({ sessionId: s.session_id, timeoutMs: 3000 });
    expect(ev.status).toBe('delivered');
    expect(deliveries).toHaveLength(1);
  }, 8000);

  it('waitFor: a timeout still ends the wait when Date is faked', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2030-01-01T00:00:00Z') });
    await expect(emu.webhooks.waitFor({ timeoutMs: 200 })).rejects.toThrow(/within 200 ms/);
  }, 8000);

  it('startEmulator: an emulator started while timers and Date are faked answers checks on real time', async () => {
    vi.useFakeTimers({ now: new Date('2030-01-01T00:00:00Z') });
    const other = await startEmulator({ listen: false });
    try {
      const r = await other.check({ ip: '192.0.2.1' });
      expect(r.created_at.startsWith('2030-')).toBe(false);
    } finally {
      await other.close();
    }
  }, 8000);

  it('webhook attempts: duration_ms is the real time the receiver took while the suite fakes performance.now', async () => {
    const realSetTimeout = globalThis.setTimeout;
    const slow = createServer((_req, res) => void realSetTimeout(() => res.writeHead(200).end(), 250));
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    try {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'Date', 'performance'] });
      await emu.views.create({ name: 'suspicious', filter: 'risk_level = suspicious' });
      await emu.webhooks.create(`http://127.0.0.1:${(slow.address() as AddressInfo).port}/hook`);
      const s = await emu.sessions.create({ ip: '198.51.100.4' });
      const ev = await emu.webhooks.waitFor({ sessionId: s.session_id, timeoutMs: 3000 });
      expect(ev.attempts[0].duration_ms).toBeGreaterThanOrEqual(200);
    } finally {
      vi.useRealTimers();
      slow.close();
    }
  }, 8000);

  it('stream: the keep-alive comment keeps to real time; advancing the suite\'s fake timers does not send it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const res = await emu.fetch('/_vtr/api/stream');
    const reader = res.body!.getReader();
    const text = new TextDecoder();
    // What arrives within a few turns of the event loop (setImmediate is not faked); one read at a time.
    let pending: ReturnType<typeof reader.read> | null = null;
    const readSoon = async () => {
      let got = '';
      for (let i = 0; i < 20; i++) {
        pending ??= reader.read();
        const chunk = await Promise.race([pending, new Promise<null>((r) => setImmediate(() => r(null)))]);
        if (chunk) {
          pending = null;
          if (!chunk.done) got += text.decode(chunk.value);
        }
      }
      return got;
    };
    try {
      expect(await readSoon()).toContain('event: ready');
      vi.advanceTimersByTime(16_000);
      expect(await readSoon()).not.toContain('keep-alive');
    } finally {
      await reader.cancel();
    }
  }, 8000);
});

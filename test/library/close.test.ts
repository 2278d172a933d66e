// emu.close() in a suite's afterAll: a delivery still waiting on a slow receiver does not hold it for
// the webhook timeout (which may be longer than the suite's hook timeout); the attempt is cut and,
// with a database file, runs again at the next start.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/index.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';

let rx: Receiver | null = null;
let dir = '';
afterEach(async () => {
  await rx?.close();
  rx = null;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('library: close', () => {
  it('close: a delivery the receiver never answers is cut, not waited for until the webhook timeout', async () => {
    rx = await startReceiver({ answer: () => 'hang' });
    // A day: a close that waited for the attempt would outlast this test's own timeout.
    const emu = await startEmulator({ listen: false, webhookTimeoutMs: 86_400_000 });
    await emu.views.create({ name: 'tor', filter: 'risks contains tor' });
    await emu.webhooks.create(rx.url);
    await emu.sessions.create({ ip: '203.0.113.7' });
    await rx.waitFor((ds) => ds.length === 1);
    await emu.close();
    await expect(emu.sessions.list()).rejects.toThrow(/closed/);
  }, 20_000);

  it('close: with a database file, the cut attempt is made again at the next start', async () => {
    dir = mkdtempSync(join(tmpdir(), 'vtr-close-'));
    const db = join(dir, 'vtr.db');
    rx = await startReceiver({ answer: (d) => (d.n === 0 ? 'hang' : 200) });
    const first = await startEmulator({ listen: false, db, webhookTimeoutMs: 86_400_000 });
    await first.views.create({ name: 'tor', filter: 'risks contains tor' });
    await first.webhooks.create(rx.url);
    const s = await first.sessions.create({ ip: '203.0.113.7' });
    await rx.waitFor((ds) => ds.length === 1);
    await first.close();
    const again = await startEmulator({ listen: false, db });
    try {
      const ev = await again.webhooks.waitFor({ sessionId: s.session_id!, status: 'delivered' });
      // The cut attempt left no record: the delivery made now is the first one recorded.
      expect(ev.attempts.map((a) => a.status_code)).toEqual([200]);
      expect(rx.deliveries.map((d) => d.headers['webhook-id'])).toEqual([ev.webhook_event_id, ev.webhook_event_id]);
    } finally {
      await again.close();
    }
  }, 20_000);
});

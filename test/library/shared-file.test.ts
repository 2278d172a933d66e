// Two emulators on one database file, as two `vtr serve --db` processes are: one time between them.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/index.js';
import { startReceiver } from '../helpers/receiver.js';
import { tempDir } from '../helpers/vtr-process.js';

const running: RunningEmulator[] = [];
afterEach(async () => {
  for (const e of running.splice(0)) await e.close();
});

async function twoOnOneFile(clock: 'manual' | 'frozen'): Promise<[RunningEmulator, RunningEmulator]> {
  const db = join(tempDir('vtr-shared-clock-'), 'vtr.db');
  const a = await startEmulator({ db, clock });
  running.push(a);
  const b = await startEmulator({ db, clock });
  running.push(b);
  return [a, b];
}

const ms = (iso: string) => Date.parse(iso.endsWith('Z') ? iso : `${iso}Z`);

describe('clock on a shared database file', () => {
  it('clock advance: a manual clock moved by one server is the other server\'s time at once', async () => {
    const [a, b] = await twoOnOneFile('manual');
    await a.clock.advance('2h');
    await new Promise((r) => setImmediate(r));
    expect(ms(b.clock.now()) - Date.now()).toBeGreaterThan(7_100_000);
    // A session made through the other server is stamped with the moved time, and moves add up.
    const session = await b.sessions.create({});
    expect(ms(session.created_at) - Date.now()).toBeGreaterThan(7_100_000);
    await b.clock.advance('1h');
    await new Promise((r) => setImmediate(r));
    expect(ms(a.clock.now()) - Date.now()).toBeGreaterThan(10_700_000);
  });

  it('clock advance: a frozen clock moved by one server is the other server\'s time at once', async () => {
    const [a, b] = await twoOnOneFile('frozen');
    expect(b.clock.now()).toBe(a.clock.now());
    await a.clock.advance('30m');
    await new Promise((r) => setImmediate(r));
    expect(b.clock.now()).toBe(a.clock.now());
  });
});

describe('webhooks on a shared database file', () => {
  it('dispatcher: a retry scheduled by a server that then stops is sent by the other server at its time, not at its 30 s backstop', async () => {
    const receiver = await startReceiver({ answer: (d) => (d.json.attempt === 1 ? 500 : 200) });
    try {
      const db = join(tempDir('vtr-shared-hooks-'), 'vtr.db');
      const retrySchedule = [1000, 1000, 1000, 1000, 1000];
      const a = await startEmulator({ db, retrySchedule });
      const b = await startEmulator({ db, retrySchedule });
      running.push(b);
      // b has been idle: what a wrote, it has not read.
      await a.views.create({ name: 'hosting', filter: 'risk_level = suspicious' });
      await a.webhooks.create(receiver.url);
      const session = await a.sessions.create({ ip: '198.51.100.7' });
      const retrying = await a.webhooks.waitFor({ sessionId: session.session_id, status: 'retrying' });
      await a.close();
      const started = Date.now();
      await receiver.waitFor((ds) => ds.some((d) => d.json.attempt === 2), 10_000);
      expect(Date.now() - started).toBeLessThan(5_000);
      const delivered = await b.webhooks.waitFor({ sessionId: session.session_id, status: 'delivered' });
      expect(delivered.webhook_event_id).toBe(retrying.webhook_event_id);
      expect(receiver.deliveries.filter((d) => d.json.attempt === 2)).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  }, 20_000);
});

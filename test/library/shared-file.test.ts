// Two emulators on one database file, as two `vtr serve --db` processes are: one time between them.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/index.js';

const running: RunningEmulator[] = [];
afterEach(async () => {
  for (const e of running.splice(0)) await e.close();
});

async function twoOnOneFile(clock: 'manual' | 'frozen'): Promise<[RunningEmulator, RunningEmulator]> {
  const db = join(mkdtempSync(join(tmpdir(), 'vtr-shared-clock-')), 'vtr.db');
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

// `vtr logs tail` and `vtr webhooks tail` while the emulator is away: the loss is said once in full,
// each further try briefly.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, tempDir } from '../helpers/vtr-process.js';
import { freePort, spawnCli } from '../helpers/cli-process.js';
import { waitUntil } from '../helpers/receiver.js';

const cleanup: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

describe('tails, emulator away (built binary)', { timeout: 60_000 }, () => {
  it.each(['logs', 'webhooks'])('%s tail: the lost emulator is said once in full, later tries briefly; --json stdout stays empty', async (group) => {
    const db = join(tempDir(), 'vtr.db');
    const port = String(await freePort());
    let s = await startServer(['--db', db, '--port', port]);
    cleanup.push(() => s.stop('SIGKILL'));
    const human = spawnCli([group, 'tail', '--no-color'], s.env, cleanup);
    const json = spawnCli([group, 'tail', '--json'], s.env, cleanup);
    await human.waitErr(/Tailing/);
    await json.waitErr(/Tailing/);
    await s.stop('SIGTERM');
    // Tries after 0.5 s, 1 s and 2 s: three lines.
    const tries = (err: string) => err.split('\n').filter((l) => /reconnecting|trying again/.test(l));
    await waitUntil(() => tries(human.stderr()).length >= 3 && tries(json.stderr()).length >= 3, 20_000, () => human.stderr());
    for (const t of [human, json]) {
      const [first, second, third] = tries(t.stderr());
      expect(first).toBe(`vtr: lost the emulator at ${s.origin}; reconnecting in 0.5s…`);
      expect(second).toBe('vtr: still unreachable; trying again in 1s…');
      expect(third).toBe('vtr: still unreachable; trying again in 2s…');
      expect(t.stderr().match(/lost the emulator/g)).toHaveLength(1);
    }
    const seen = human.stderr().length;
    s = await startServer(['--db', db, '--port', port]);
    await waitUntil(() => /reconnected/.test(human.stderr().slice(seen)), 20_000, () => human.stderr());
    expect(await human.stop()).toBe(0);
    expect(await json.stop()).toBe(0);
    expect(json.stdout()).toBe('');
  });
});

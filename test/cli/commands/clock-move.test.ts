import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { jsonContext as context } from '../../helpers/cli-context.js';
import { run as advance } from '../../../src/cli/commands/clock/advance.js';
import { run as set } from '../../../src/cli/commands/clock/set.js';

const servers: Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

/** An emulator whose clock move answers only after `delayMs` (the attempts due on the way take time). */
async function slowClock(delayMs: number): Promise<string> {
  const s = createServer((req, res) => {
    req.resume();
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ now: '2026-11-27T10:00:00.000000', mode: 'frozen', offset_ms: 3_600_000 }));
    }, delayMs);
  });
  servers.push(s);
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(s.address() as { port: number }).port}/api/v1`;
}


describe('vtr clock advance / set', () => {
  it('clock advance: waits for the emulator\'s answer however long the attempts on the way take', async () => {
    const { ctx, out } = context(await slowClock(400));
    await advance({ args: ['1h'] }, ctx);
    expect(JSON.parse(out())).toMatchObject({ mode: 'frozen', offset_ms: 3_600_000 });
  });

  it('clock set: waits for the emulator\'s answer however long the attempts on the way take', async () => {
    const { ctx, out } = context(await slowClock(400));
    await set({ args: ['2026-11-27T10:00:00'] }, ctx);
    expect(JSON.parse(out())).toMatchObject({ now: '2026-11-27T10:00:00.000000' });
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../../src/emulator.js';

describe('rate limit', () => {
  let emulator: Emulator;
  afterEach(async () => emulator?.close());

  it('rate limit: answers 429 rate_limited with Retry-After past N requests a second, and logs it', async () => {
    // A frozen clock: the five requests share one window however slowly a loaded machine runs
    // them, and only advance moves it.
    emulator = createEmulator({ dbPath: ':memory:', rateLimit: 3, clock: 'frozen' });
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 5; i++) {
      last = await emulator.app.request('/api/v1/session/nope');
      statuses.push(last.status);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    expect(last!.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await last!.json()).toMatchObject({ code: 'rate_limited' });
    // The refused requests are in the request log too.
    const logged = (await (await emulator.app.request('/_vtr/api/logs')).json()) as Array<{ status: number }>;
    expect(logged.map((e) => e.status)).toEqual([429, 429, 401, 401, 401]);
    // A new second opens a new window.
    emulator.clock.advance(1000);
    expect((await emulator.app.request('/api/v1/session/nope')).status).toBe(401);
  });

  it('rate limit: off by default', async () => {
    emulator = createEmulator({ dbPath: ':memory:' });
    for (let i = 0; i < 20; i++) expect((await emulator.app.request('/api/v1/session/nope')).status).toBe(401);
  });
});

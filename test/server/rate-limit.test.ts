import { afterEach, describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { createEmulator, type Emulator } from '../../src/emulator.js';
import { createClock } from '../../src/domain/clock.js';
import { rateLimit } from '../../src/server/rate-limit.js';
import { errorResponse } from '../../src/server/http.js';

describe('rate limit', () => {
  let emulator: Emulator;
  afterEach(async () => emulator?.close());

  it('rate limit: answers 429 rate_limited with Retry-After past N requests a second, and logs it', async () => {
    emulator = createEmulator({ dbPath: ':memory:', rateLimit: 3 });
    // Windows are real seconds: on a loaded machine one may close mid-way, so send until refused.
    const statuses: number[] = [];
    let last: Response | undefined;
    while (!statuses.includes(429) && statuses.length < 100) {
      last = await emulator.app.request('/api/v1/session/nope');
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    expect(statuses.at(-1)).toBe(429);
    expect(last!.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await last!.json()).toMatchObject({ code: 'rate_limited' });
    // The refused requests are in the request log too.
    const logged = (await (await emulator.app.request('/_vtr/api/logs')).json()) as Array<{ status: number }>;
    expect(logged.map((e) => e.status)).toEqual([...statuses].reverse());
  });

  it('rate limit: windows are real seconds, so a frozen clock still lets a client in after Retry-After', async () => {
    let real = Date.UTC(2026, 0, 1);
    const clock = createClock('frozen', 0, () => real);
    const app = new Hono();
    app.use('*', rateLimit(2, clock));
    app.get('/x', (c) => c.text('ok'));
    app.onError((err, c) => errorResponse(c, err));
    const statuses = async (n: number) => {
      const out: number[] = [];
      for (let i = 0; i < n; i++) out.push((await app.request('/x')).status);
      return out;
    };
    expect(await statuses(3)).toEqual([200, 200, 429]);
    // Moving the emulated time opens no window: it is not the client's waiting.
    clock.advance(3_600_000);
    expect(await statuses(1)).toEqual([429]);
    // The second the answer asked the client to wait, in real time.
    real += 1000;
    expect(await statuses(3)).toEqual([200, 200, 429]);
  });

  it('rate limit: off by default', async () => {
    emulator = createEmulator({ dbPath: ':memory:' });
    for (let i = 0; i < 20; i++) expect((await emulator.app.request('/api/v1/session/nope')).status).toBe(401);
  });
});

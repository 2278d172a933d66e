import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEmulator, type Emulator } from '../../src/emulator.js';

describe('rate limit', () => {
  let emulator: Emulator;
  afterEach(async () => {
    vi.useRealTimers();
    await emulator?.close();
  });

  it('rate limit: answers 429 rate_limited with Retry-After past N requests a second', async () => {
    // Real time stands still for the emulator's clock (only Date is faked; timers stay real), so the
    // five requests share one window however slowly a loaded machine runs them; advance moves it.
    vi.useFakeTimers({ toFake: ['Date'] });
    emulator = createEmulator({ dbPath: ':memory:', rateLimit: 3, clock: 'manual' });
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 5; i++) {
      last = await emulator.app.request('/api/v1/session/nope');
      statuses.push(last.status);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    expect(last!.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await last!.json()).toMatchObject({ code: 'rate_limited' });
    // A new second opens a new window.
    emulator.clock.advance(1000);
    expect((await emulator.app.request('/api/v1/session/nope')).status).toBe(401);
  });

  it('rate limit: off by default', async () => {
    emulator = createEmulator({ dbPath: ':memory:' });
    for (let i = 0; i < 20; i++) expect((await emulator.app.request('/api/v1/session/nope')).status).toBe(401);
  });
});

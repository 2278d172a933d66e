// emu.webhooks.events(): every event, however many, not only a first page of them.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/index.js';

let emu: RunningEmulator;
beforeAll(async () => {
  // Frozen: the failed first attempts wait for a retry that never comes, so every event stays `retrying`.
  emu = await startEmulator({ listen: false, clock: 'frozen' });
});
afterAll(() => emu.close());

describe('library: webhook events', () => {
  it('webhooks.events: a webhook with more than a thousand events gives them all, newest first', async () => {
    await emu.views.create({ name: 'tor', filter: 'risks contains tor' });
    const hook = await emu.webhooks.create('http://127.0.0.1:9/nowhere');
    const made: string[] = [];
    for (let i = 0; i < 1005; i++) made.push((await emu.sessions.create({ ip: '203.0.113.7' })).session_id!);
    const all = await emu.webhooks.events();
    expect(all).toHaveLength(1005);
    expect(new Set(all.map((e) => e.session_id))).toEqual(new Set(made));
    expect(all[0].session_id).toBe(made.at(-1));
    expect(await emu.webhooks.events({ webhookId: hook.webhook_id })).toHaveLength(1005);
    // Each first attempt made (refused), a status filter pages through them too.
    await vi.waitFor(async () => expect(await emu.webhooks.events({ status: 'pending' })).toEqual([]), { timeout: 60_000, interval: 200 });
    expect(await emu.webhooks.events({ status: 'retrying' })).toHaveLength(1005);
    const oldest = await emu.webhooks.waitFor({ sessionId: made[0], status: 'retrying' });
    expect(oldest.session_id).toBe(made[0]);
  }, 120_000);
});

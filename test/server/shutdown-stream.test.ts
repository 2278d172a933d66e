// Stopping the emulator lets the webhook attempts in flight finish while event streams are still
// open, so a `vtr webhooks tail` sees their results before its stream ends.
import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator } from '../../src/emulator.js';
import { eventStream } from '../../src/client/sse.js';
import { startReceiver, waitUntil, type Receiver } from '../helpers/receiver.js';

let rx: Receiver | null = null;
afterEach(async () => {
  await rx?.close();
});

describe('shutdown and the event stream', () => {
  it('close: an attempt in flight is finished and its result is on the stream before the stream ends', async () => {
    rx = await startReceiver({ answer: () => ({ status: 200, delayMs: 400 }) });
    const emu = createEmulator({ dbPath: ':memory:' });
    const { port } = await emu.listen(0, '127.0.0.1');
    const site = emu.bootstrap!.site;
    emu.deps.webhooks!.create(site.site_id, rx.url);
    emu.deps.views!.create(site.site_id, { name: 'All', filter: 'page_views >= 1', trigger_webhooks: true });

    const seen: string[] = [];
    let ready = false;
    const reading = (async () => {
      for await (const ev of eventStream({ url: `http://127.0.0.1:${port}/_vtr/api/stream?types=webhook_attempt.` })) {
        if (ev.event === 'ready') ready = true;
        else seen.push(ev.event);
      }
    })();
    await waitUntil(() => ready);
    await emu.app.request(`/_vtr/api/sites/${site.site_id}/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    await waitUntil(() => seen.includes('webhook_attempt.started'));

    await emu.close(); // the receiver is still holding the attempt
    await reading; // the stream ended
    expect(seen).toEqual(['webhook_attempt.started', 'webhook_attempt.created']);
    expect(rx.deliveries).toHaveLength(1);
  });

  it('close: an event stream read in-process (no port) ends too, with what was queued, as over HTTP', async () => {
    const emu = createEmulator({ dbPath: ':memory:' });
    const site = emu.bootstrap!.site;
    const res = await emu.app.request('/_vtr/api/stream?types=session.');
    const reader = res.body!.getReader();
    const text: string[] = [];
    const reading = (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        text.push(new TextDecoder().decode(value));
      }
    })();
    await waitUntil(() => text.join('').includes('event: ready'));
    await emu.app.request(`/_vtr/api/sites/${site.site_id}/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    await emu.close();
    const ended = await Promise.race([reading.then(() => true), new Promise((r) => setTimeout(() => r(false), 3000))]);
    expect(ended).toBe(true);
    expect(text.join('')).toContain('event: session.created');
  });
});

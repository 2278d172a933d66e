// What `vtr clock advance/set` report on stderr: the attempts the move ran, told apart from one that
// was already running when it started (the move waits for it, but did not make it due).
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../../src/client/api-client.js';
import type { CliContext } from '../../../src/cli/context.js';
import { reportingAttempts } from '../../../src/cli/commands/clock/attempts-run.js';
import { startEmulator, type RunningEmulator } from '../../../src/index.js';
import { startReceiver, type Receiver } from '../../helpers/receiver.js';

let emu: RunningEmulator | undefined;
let rx: Receiver | undefined;
afterEach(async () => {
  await emu?.close();
  await rx?.close();
});

/** A context whose stderr lines (ctx.info) are kept. */
function context(baseUrl: string, colour: { color: boolean; stderrColor: boolean } = { color: false, stderrColor: false }) {
  const lines: string[] = [];
  const client = createApiClient({ baseUrl });
  const io = { stdout: { write: () => true }, stderr: { write: () => true }, stdinIsTTY: false };
  const ctx = { io, config: { json: false, quiet: false, ...colour }, interactive: false, client: async () => client, info: (s: string) => void lines.push(s) } as unknown as CliContext;
  return { ctx, client, lines };
}

describe('vtr clock advance: the attempts it ran', () => {
  it('clock advance: an attempt already running when the move starts is not counted as run on the way', async () => {
    const receiver = (rx = await startReceiver({ answer: (d) => (d.n === 0 ? 'hang' : 200) }));
    const running = (emu = await startEmulator({ clock: 'frozen' }));
    await running.client.admin('PATCH', `/sites/${running.site.siteId}`, { body: { plan: 'paid' } });
    const hook = await running.client.admin<{ webhook_id: string }>('POST', `/sites/${running.site.siteId}/webhooks`, { body: { url: receiver.url } });
    const event = await running.client.admin<{ webhook_event_id: string }>('POST', `/webhooks/${hook.webhook_id}/trigger`, { body: {} });
    // Its first attempt is out (a frozen clock runs it at once) and waits for an answer.
    await receiver.waitFor((ds) => ds.length === 1);
    const { ctx, client, lines } = context(running.baseUrl);
    // The move (3 s: past the 2 s retry) waits for that attempt, cut once the move has begun; then
    // runs the retry, which is answered 200.
    await reportingAttempts(ctx, client, async () => {
      const moved = running.clock.advance('3s');
      receiver.releaseHanging();
      await moved;
    });
    const ran = lines.filter((l) => l.includes(event.webhook_event_id));
    expect(ran).toHaveLength(2);
    expect(ran[0]).toMatch(/#1 .*already running before the move/);
    expect(ran[1]).toMatch(/#2  HTTP 200  → delivered/);
    expect(ran[1]).not.toContain('already running');
    expect(lines.at(-1)).toBe('Ran 1 webhook attempt on the way; 1 already running before the move finished meanwhile.');
  });

  it('clock advance: its lines on stderr are coloured by whether stderr is a terminal, not stdout (2>file gets no escapes)', async () => {
    const receiver = (rx = await startReceiver({ answer: (d) => (d.n % 2 === 0 ? 500 : 200) }));
    const running = (emu = await startEmulator({ clock: 'frozen' }));
    await running.client.admin('PATCH', `/sites/${running.site.siteId}`, { body: { plan: 'paid' } });
    const hook = await running.client.admin<{ webhook_id: string }>('POST', `/sites/${running.site.siteId}/webhooks`, { body: { url: receiver.url } });
    await running.client.admin('POST', `/webhooks/${hook.webhook_id}/trigger`, { body: {} });
    await receiver.waitFor((ds) => ds.length === 1);
    const toFile = context(running.baseUrl, { color: true, stderrColor: false });
    await reportingAttempts(toFile.ctx, toFile.client, () => running.clock.advance('3s'));
    expect(toFile.lines.join('\n')).toContain('HTTP 200');
    expect(toFile.lines.join('\n')).not.toMatch(/\u001b\[/);
    const toTerminal = context(running.baseUrl, { color: false, stderrColor: true });
    await running.client.admin('POST', `/webhooks/${hook.webhook_id}/trigger`, { body: {} });
    await receiver.waitFor((ds) => ds.length === 3);
    await reportingAttempts(toTerminal.ctx, toTerminal.client, () => running.clock.advance('3s'));
    expect(toTerminal.lines.join('\n')).toMatch(/\u001b\[/);
  });
});

// A manual retry (POST /_vtr/api/webhook-events/{id}/retry) whose event goes away while its attempt runs.
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/index.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';

let emu: RunningEmulator | undefined;
let rx: Receiver | undefined;
afterEach(async () => {
  await emu?.close();
  await rx?.close();
});

describe('manual retry', () => {
  it('retry: a webhook deleted while the manual attempt runs is named as deleted, not as an event never found', async () => {
    // Six failures use up the automatic attempts; the manual one then hangs until released.
    const receiver = (rx = await startReceiver({ answer: (d) => (d.n < 6 ? 500 : 'hang') }));
    const running = (emu = await startEmulator({ clock: 'frozen' }));
    await running.client.admin('PATCH', `/sites/${running.site.siteId}`, { body: { plan: 'paid' } });
    const hook = await running.client.admin<{ webhook_id: string }>('POST', `/sites/${running.site.siteId}/webhooks`, { body: { url: receiver.url } });
    const event = await running.client.admin<{ webhook_event_id: string }>('POST', `/webhooks/${hook.webhook_id}/trigger`, { body: {} });
    await receiver.waitFor((ds) => ds.length === 1);
    await running.clock.advance('1h');
    const retried = running.client.admin('POST', `/webhook-events/${event.webhook_event_id}/retry`).then(
      () => null,
      (err: unknown) => err,
    );
    await receiver.waitFor((ds) => ds.length === 7);
    await running.client.admin('DELETE', `/webhooks/${hook.webhook_id}`);
    receiver.releaseHanging();
    const err = (await retried) as { status: number; code: string; message: string };
    expect(err).toMatchObject({ status: 404, code: 'not_found' });
    expect(err.message).toBe(`webhook event ${event.webhook_event_id} was deleted with its webhook ${hook.webhook_id} while this attempt ran: its result is not kept`);
  });
});

import type { WebhookEvent } from '../../../domain/webhooks.js';
import type { CliContext } from '../../context.js';
import { output } from '../../output.js';
import { enc, onGivenSite } from '../../site-ref.js';
import { renderEvent } from './render.js';
import { emulatorClock } from '../../time-display.js';
import { holdingSites } from './held.js';

export async function run(o: { args: string[]; payload?: boolean }, ctx: CliContext): Promise<void> {
  const client = await ctx.client();
  const path = `/webhook-events/${enc(o.args[0])}`;
  const event = (await onGivenSite<WebhookEvent & { payload?: unknown }>(ctx, client, path, `event ${o.args[0]}`)) ?? (await client.admin<WebhookEvent & { payload?: unknown }>('GET', path));
  // The webhook's URL, for the human view (the event names only its id); gone with a deleted webhook.
  const hook = ctx.config.json ? null : await client.admin<{ url: string }>('GET', `/webhooks/${enc(event.webhook_id)}`).catch(() => null);
  const { emulated, now } = await emulatorClock(ctx, client);
  const held = (await holdingSites(ctx, client, [event.site_id])).has(event.site_id);
  output(ctx, event, () => renderEvent(event, { url: hook?.url ?? null, payload: o.payload, emulated, now, held }));
}

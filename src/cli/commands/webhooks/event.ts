import type { WebhookEvent } from '../../../domain/webhooks.js';
import type { CliContext } from '../../context.js';
import { output } from '../../output.js';
import { enc, onGivenSite } from '../../site-ref.js';
import { renderEvent } from './render.js';

export async function run(o: { args: string[]; payload?: boolean }, ctx: CliContext): Promise<void> {
  const client = await ctx.client();
  const path = `/webhook-events/${enc(o.args[0])}`;
  const event = (await onGivenSite<WebhookEvent & { payload?: unknown }>(ctx, client, path, `event ${o.args[0]}`)) ?? (await client.admin<WebhookEvent & { payload?: unknown }>('GET', path));
  // The webhook's URL, for the human view (the event names only its id); gone with a deleted webhook.
  const hook = ctx.config.json ? null : await client.admin<{ url: string }>('GET', `/webhooks/${enc(event.webhook_id)}`).catch(() => null);
  // The emulator's time: whether it marks times, and whether a due attempt is under way (human view only).
  const clock = ctx.config.json ? null : await client.admin<{ mode: string; now: string }>('GET', '/clock').catch(() => null);
  const emulated = clock != null && clock.mode !== 'system';
  output(ctx, event, () => renderEvent(event, { url: hook?.url ?? null, payload: o.payload, emulated, now: clock?.now ?? null }));
}

import type { WebhookEvent } from '../../../domain/webhooks.js';
import type { CliContext } from '../../context.js';
import { output } from '../../output.js';
import { enc } from '../../site-ref.js';
import { renderEvent } from './render.js';

export async function run(o: { args: string[] }, ctx: CliContext): Promise<void> {
  const client = await ctx.client();
  const event = await client.admin<WebhookEvent>('GET', `/webhook-events/${enc(o.args[0])}`);
  output(ctx, event, () => renderEvent(event));
}

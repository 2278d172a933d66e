// `enable` and `disable` share this: one call, the webhook afterwards.
import type { Webhook } from '../../../domain/webhooks.js';
import type { CliContext } from '../../context.js';
import { output } from '../../output.js';
import { enc, onGivenSite } from '../../site-ref.js';
import { renderWebhook } from './render.js';
import { emulatedClock } from '../../time-display.js';

export async function setStatus(id: string, verb: 'enable' | 'disable', ctx: CliContext): Promise<void> {
  const client = await ctx.client();
  const known = await onGivenSite<Webhook>(ctx, client, `/webhooks/${enc(id)}`, `webhook ${id}`);
  // Only `disable` has something else to say when nothing changed.
  const wasDisabled = verb === 'disable' && (known ?? (await client.admin<Webhook>('GET', `/webhooks/${enc(id)}`))).status === 'disabled';
  const hook = await client.admin<Webhook>('POST', `/webhooks/${enc(id)}/${verb}`);
  const emulated = await emulatedClock(ctx, client);
  output(ctx, hook, () => renderWebhook(hook, emulated));
  if (wasDisabled) ctx.info('It was already disabled: nothing changed.');
  else if (verb === 'disable') ctx.info('Its pending retries were stopped (those events are failed); it gets no new events until `vtr webhooks enable`.');
  else ctx.info('Enabled; its failure run starts again from zero.');
}

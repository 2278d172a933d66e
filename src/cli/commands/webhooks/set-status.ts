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
  // Asking for the status it already has changes nothing (an enabled webhook keeps its failure run): say so.
  const before = known ?? (await client.admin<Webhook>('GET', `/webhooks/${enc(id)}`));
  const unchanged = before.status === (verb === 'enable' ? 'enabled' : 'disabled');
  const hook = await client.admin<Webhook>('POST', `/webhooks/${enc(id)}/${verb}`);
  const emulated = await emulatedClock(ctx, client);
  output(ctx, hook, () => renderWebhook(hook, emulated));
  if (unchanged && verb === 'disable') ctx.info('It was already disabled: nothing changed.');
  else if (unchanged) ctx.info(`It was already enabled: nothing changed; ${runSoFar(hook.consecutive_failures)}.`);
  else if (verb === 'disable') ctx.info('Its pending retries were stopped (those events are failed); it gets no new events until `vtr webhooks enable`.');
  else ctx.info('Enabled; its failure run starts again from zero.');
}

const runSoFar = (n: number): string =>
  n === 0 ? 'no event has failed since its last delivery' : `its failure run goes on (${n} event${n === 1 ? '' : 's'} failed in a row)`;

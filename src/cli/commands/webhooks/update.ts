// A webhook pointed at another URL (PATCH): its id, secret, status, failure run and event history
// stay; what it sends from now on, pending retries included, goes to the new URL. Its status has
// `enable` and `disable`, which say what changing it does.
import type { Webhook } from '../../../domain/webhooks.js';
import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { output } from '../../output.js';
import { enc, onGivenSite } from '../../site-ref.js';
import { renderWebhook } from './render.js';
import { suggestReceiver } from './receive-command.js';
import { checkUrlOption } from './url-option.js';
import { emulatedClock } from '../../time-display.js';

export interface UpdateWebhookOptions {
  args: string[];
  url?: string;
}

export async function run(o: UpdateWebhookOptions, ctx: CliContext): Promise<void> {
  const id = o.args[0];
  if (o.url === undefined) throw new UsageError(`nothing to change: give --url <url> (e.g. \`vtr webhooks update ${id} --url http://127.0.0.1:9000/\`)`);
  checkUrlOption(o.url);
  const client = await ctx.client();
  const path = `/webhooks/${enc(id)}`;
  const before = (await onGivenSite<Webhook>(ctx, client, path, `webhook ${id}`)) ?? (await client.admin<Webhook>('GET', path));
  const hook = await client.admin<Webhook>('PATCH', path, { body: { url: o.url } });
  const emulated = await emulatedClock(ctx, client);
  output(ctx, hook, () => renderWebhook(hook, emulated));
  if (before.url === hook.url) return void ctx.info('It already pointed there: nothing changed.');
  ctx.info(`Its deliveries from now on, pending retries included, go there; its secret and event history stay.${hook.status === 'disabled' ? ` It is still disabled and gets no new events: vtr webhooks enable ${id}` : ''}`);
  suggestReceiver(ctx, hook);
}

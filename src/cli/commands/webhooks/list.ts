import type { Webhook } from '../../../domain/webhooks.js';
import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { output } from '../../output.js';
import { currentSiteId, enc } from '../../site-ref.js';
import { renderWebhooks } from './render.js';
import { emulatedClock } from '../../time-display.js';

export async function run(o: { site?: string; all?: boolean }, ctx: CliContext): Promise<void> {
  if (o.all && o.site) throw new UsageError('--all lists every site, --site one: give only one of them');
  const client = await ctx.client();
  const hooks = o.all
    ? await client.admin<Webhook[]>('GET', '/webhooks')
    : await client.admin<Webhook[]>('GET', `/sites/${enc(await currentSiteId(ctx, client, o.site))}/webhooks`);
  const emulated = await emulatedClock(ctx, client);
  output(ctx, hooks, () => (hooks.length ? renderWebhooks(hooks, emulated) : 'No webhooks.'));
  // The hint goes to stderr, with the other hints.
  if (!hooks.length && !ctx.config.json) ctx.info('Add one: vtr webhooks create --url http://127.0.0.1:9000/');
}

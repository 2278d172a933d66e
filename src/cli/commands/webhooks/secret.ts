import type { Webhook } from '../../../domain/webhooks.js';
import type { CliContext } from '../../context.js';
import { output } from '../../output.js';
import { enc, onGivenSite } from '../../site-ref.js';

export async function run(o: { args: string[] }, ctx: CliContext): Promise<void> {
  const client = await ctx.client();
  await onGivenSite(ctx, client, `/webhooks/${enc(o.args[0])}`, `webhook ${o.args[0]}`);
  const hook = await client.admin<Webhook>('GET', `/webhooks/${enc(o.args[0])}`);
  output(ctx, { webhook_id: hook.webhook_id, secret: hook.secret }, () => hook.secret);
}

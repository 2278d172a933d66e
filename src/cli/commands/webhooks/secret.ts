import type { Webhook } from '../../../domain/webhooks.js';
import type { CliContext } from '../../context.js';
import { output } from '../../output.js';
import { enc, onGivenSite } from '../../site-ref.js';

export async function run(o: { args: string[] }, ctx: CliContext): Promise<void> {
  const client = await ctx.client();
  const path = `/webhooks/${enc(o.args[0])}`;
  const hook = (await onGivenSite<Webhook>(ctx, client, path, `webhook ${o.args[0]}`)) ?? (await client.admin<Webhook>('GET', path));
  output(ctx, { webhook_id: hook.webhook_id, secret: hook.secret }, () => hook.secret);
}

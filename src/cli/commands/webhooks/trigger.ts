// `vtr webhooks trigger`: a saved_view event now, through the normal outbox. stdout: the event id
// (--json: the event); stderr: what it was made of and how to follow it.
import type { WebhookEvent } from '../../../domain/webhooks.js';
import type { CliContext } from '../../context.js';
import { output } from '../../output.js';
import { enc, onGivenSite } from '../../site-ref.js';

export interface TriggerOptions {
  args: string[];
  session?: string;
  view?: string;
}

export async function run(o: TriggerOptions, ctx: CliContext): Promise<void> {
  const client = await ctx.client();
  await onGivenSite(ctx, client, `/webhooks/${enc(o.args[0])}`, `webhook ${o.args[0]}`);
  const body = { ...(o.session ? { session_id: o.session } : {}), ...(o.view ? { saved_view_id: o.view } : {}) };
  const event = await client.admin<WebhookEvent>('POST', `/webhooks/${enc(o.args[0])}/trigger`, { body });
  ctx.info(`Test event ${event.webhook_event_id}: saved view "${event.saved_view_name}" (${event.saved_view_id}), session ${event.session_id}${o.session ? '' : ' (new, from test values)'}.`);
  ctx.info(`Follow it: vtr webhooks event ${event.webhook_event_id}  (or vtr webhooks tail)`);
  output(ctx, event, () => event.webhook_event_id);
}

import type { ApiClient } from '../../../client/api-client.js';
import type { Webhook } from '../../../domain/webhooks.js';
import type { CliContext } from '../../context.js';
import { enc } from '../../site-ref.js';

/**
 * A view that triggers webhooks sends nothing while its site has no enabled webhook: say so on
 * stderr, with the command that changes it, or the view looks set up and stays silent.
 */
export async function hintWhenNoWebhook(ctx: CliContext, client: ApiClient, siteId: string): Promise<void> {
  if (ctx.config.quiet) return;
  // The view is saved: a hint that cannot be looked up is left out, never turned into a failure.
  const hooks = await client.admin<Webhook[]>('GET', `/sites/${enc(siteId)}/webhooks`).catch(() => null);
  if (!hooks) return;
  if (!hooks.length) {
    ctx.info(`Site ${siteId} has no webhooks: nothing is sent for this view until one is added: vtr webhooks create --url <url> --site ${siteId}`);
  } else if (hooks.every((h) => h.status === 'disabled')) {
    ctx.info(`Every webhook of site ${siteId} is disabled: nothing is sent for this view until one is enabled: vtr webhooks enable ${hooks[0].webhook_id}`);
  }
}

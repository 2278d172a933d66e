import type { ApiClient } from '../../../client/api-client.js';
import type { Site } from '../../../domain/site.js';
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
  const [site, hooks] = await Promise.all([
    client.admin<Site>('GET', `/sites/${enc(siteId)}`).catch(() => null),
    client.admin<Webhook[]>('GET', `/sites/${enc(siteId)}/webhooks`).catch(() => null),
  ]);
  if (!site || !hooks) return;
  // Checked first: on a free site `vtr webhooks create` is refused, and webhooks it has get no events.
  if (site.plan !== 'paid') {
    const then = hooks.length ? '' : `, then vtr webhooks create --url <url> --site ${siteId}`;
    ctx.info(`Site ${siteId} is on the free plan: webhooks deliver on paid sites only, so nothing is sent for this view: vtr sites update ${siteId} --plan paid${then}`);
  } else if (!hooks.length) {
    ctx.info(`Site ${siteId} has no webhooks: nothing is sent for this view until one is added: vtr webhooks create --url <url> --site ${siteId}`);
  } else if (hooks.every((h) => h.status === 'disabled')) {
    ctx.info(`Every webhook of site ${siteId} is disabled: nothing is sent for this view until one is enabled: vtr webhooks enable ${hooks[0].webhook_id}`);
  }
}

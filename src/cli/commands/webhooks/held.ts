import type { ApiClient } from '../../../client/api-client.js';
import type { CliContext } from '../../context.js';
import { enc } from '../../site-ref.js';

/**
 * The sites among `siteIds` on the free plan, whose due attempts are held rather than under way.
 * Asked only for human output; a site that cannot be read counts as not holding.
 */
export async function holdingSites(ctx: CliContext, client: ApiClient, siteIds: Iterable<string>): Promise<Set<string>> {
  const held = new Set<string>();
  if (ctx.config.json) return held;
  for (const id of new Set(siteIds)) {
    const site = await client.admin<{ plan: string }>('GET', `/sites/${enc(id)}`).catch(() => null);
    if (site && site.plan !== 'paid') held.add(id);
  }
  return held;
}

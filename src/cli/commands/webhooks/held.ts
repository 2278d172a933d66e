import type { ApiClient } from '../../../client/api-client.js';
import type { CliContext } from '../../context.js';
import { enc } from '../../site-ref.js';

/**
 * The sites among `siteIds` on the free plan, whose due attempts are held rather than under way.
 * Asked only for human output; a site that cannot be read counts as not holding.
 */
export async function holdingSites(ctx: CliContext, client: ApiClient, siteIds: Iterable<string>): Promise<Set<string>> {
  if (ctx.config.json) return new Set();
  const ids = [...new Set(siteIds)];
  const sites = await Promise.all(ids.map((id) => client.admin<{ plan: string }>('GET', `/sites/${enc(id)}`).catch(() => null)));
  return new Set(ids.filter((_, i) => sites[i] !== null && sites[i].plan !== 'paid'));
}

import type { ApiClient } from '../client/api-client.js';
import type { CliContext } from './context.js';

/** The site a command acts on: --site (or VTR_SITE), else the emulator's default site. */
export async function currentSiteId(ctx: CliContext, client: ApiClient, explicit?: string): Promise<string> {
  const id = explicit ?? ctx.config.site;
  if (id) return id;
  const site = await client.admin<{ site_id: string }>('GET', '/sites/default');
  return site.site_id;
}

/**
 * The site a listing that covers every site is narrowed to (--site, else VTR_SITE), or null for all.
 * It is looked up first: a filter on a site that does not exist would show nothing, not the mistake.
 */
export async function siteFilter(ctx: CliContext, client: ApiClient, explicit?: string): Promise<string | null> {
  const id = explicit ?? ctx.config.site;
  if (!id) return null;
  await client.admin('GET', `/sites/${encodeURIComponent(id)}`);
  return id;
}

export const enc = encodeURIComponent;

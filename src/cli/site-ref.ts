import type { ApiClient } from '../client/api-client.js';
import type { CliContext } from './context.js';

/** The site a command acts on: --site (or VTR_SITE), else the emulator's default site. */
export async function currentSiteId(ctx: CliContext, client: ApiClient, explicit?: string): Promise<string> {
  const id = explicit ?? ctx.config.site;
  if (id) return id;
  const site = await client.admin<{ site_id: string }>('GET', '/sites/default');
  return site.site_id;
}

export const enc = encodeURIComponent;

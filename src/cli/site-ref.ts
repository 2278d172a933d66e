import { UsageError } from './errors.js';
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

/**
 * A command acting on one record by its id acts on that record's site, whatever `--site` says. An
 * explicit `--site` naming another site is a wrong id or a wrong site (in a script, most likely), so
 * it is refused before anything changes rather than ignored. VTR_SITE is not checked: `vtr exec`
 * always sets it, to the default site. Returns the record when it read it (null without --site), so
 * a command that needs it too does not read it again.
 */
export async function onGivenSite<T extends { site_id: string }>(
  ctx: CliContext, client: ApiClient, record: string | (() => Promise<T | undefined>), what: string,
): Promise<T | null> {
  return checkGivenSite(ctx, client, record, (found, given) =>
    `${what} is on site ${found}, not ${given}; leave --site out, or give --site ${found}`);
}

/**
 * `vtr sites show|update|delete <id>` act on the site <id> names: an explicit `--site` naming
 * another site is refused rather than ignored (`default` and the default site's id are one site).
 */
export async function siteArgIsGivenSite(ctx: CliContext, client: ApiClient, id: string): Promise<void> {
  if (ctx.config.site === id) return;
  await checkGivenSite(ctx, client, `/sites/${enc(id)}`, (named, given) => `${given} is not the site given, ${named}; leave --site out (the <id> names the site)`);
}

async function checkGivenSite<T extends { site_id: string }>(
  ctx: CliContext, client: ApiClient, record: string | (() => Promise<T | undefined>), mismatch: (found: string, given: string) => string,
): Promise<T | null> {
  if (ctx.config.siteFrom !== '--site' || !ctx.config.site) return null;
  // A path to read the record at, or how to find it (a record not found is left to the API's 404).
  const load = typeof record === 'string' ? () => client.admin<T>('GET', record) : record;
  const [found, site] = await Promise.all([
    load(),
    client.admin<{ site_id: string }>('GET', `/sites/${enc(ctx.config.site)}`),
  ]);
  if (found && found.site_id !== site.site_id) throw new UsageError(`--site: ${mismatch(found.site_id, site.site_id)}`);
  return found ?? null;
}

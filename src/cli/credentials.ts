// Credentials: flag > environment > the local emulator's default (or --site) site.
import { ApiError, createApiClient, type ApiClient } from '../client/api-client.js';
import { setEmulatedTimes } from './output.js';
import type { CliConfig } from './context.js';
import { OperationError, UsageError } from './errors.js';
import { refuseEmpty } from './empty-flag.js';
import { bindAddress, isIpAddress, isLoopbackName } from '../domain/ip-intel.js';

interface SiteKeys {
  site_id: string;
  secret_key: string;
}

/** Whether a URL points at this machine (loopback): a local emulator. */
export function isLocal(baseUrl: string): boolean {
  try {
    return isLoopbackName(new URL(baseUrl).hostname);
  } catch {
    return false;
  }
}

/**
 * A local URL on a loopback address that `vtr serve` and `vtr webhooks receive` listen on only when
 * told (`[::1]`, `127.0.0.2`): that address, as --host takes it. Null for 127.0.0.1, localhost, a remote URL.
 */
export function otherLoopback(url: string): string | null {
  if (!isLocal(url)) return null;
  const host = bindAddress(new URL(url).hostname);
  return isIpAddress(host) && host !== '127.0.0.1' ? host : null;
}

/** Refuses a --base-url / VTR_BASE_URL that is not an http(s) URL, naming where it came from and an example. */
export function checkBaseUrl(config: Pick<CliConfig, 'baseUrl' | 'baseUrlFrom'>): void {
  refuseEmpty(config.baseUrlFrom, config.baseUrl, "give the API's URL, e.g. http://127.0.0.1:8787/api/v1, or leave it out for the default");
  let protocol: string;
  try {
    protocol = new URL(config.baseUrl).protocol;
  } catch {
    throw new UsageError(`${config.baseUrlFrom}: "${config.baseUrl}" is not a URL; use e.g. http://127.0.0.1:8787/api/v1`);
  }
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw new UsageError(`${config.baseUrlFrom}: "${config.baseUrl}" is not an http:// or https:// URL; use e.g. http://127.0.0.1:8787/api/v1`);
  }
  // Request paths are appended to the base URL: after a `?` or `#` they would be its query or fragment.
  const extra = /[?#].*$/.exec(config.baseUrl);
  if (extra) {
    const what = extra[0].startsWith('?') ? `a query string (${extra[0].split('#')[0]})` : `a fragment (${extra[0]})`;
    throw new UsageError(`${config.baseUrlFrom}: "${config.baseUrl}" has ${what}, which a base URL cannot carry; use ${config.baseUrl.slice(0, extra.index)}`);
  }
}

/**
 * White space inside a key or token (around it is dropped) is never part of one: in a header it
 * would fail as if the server were down, in a body it would read as a rotated key.
 */
function checkCredentials(config: Pick<CliConfig, 'secretKey' | 'accessToken' | 'adminToken'>): void {
  const given: Array<[string | null, string]> = [
    [config.secretKey, '--secret-key (or VTR_SECRET_KEY)'], [config.accessToken, '--token (or VTR_ACCESS_TOKEN)'], [config.adminToken, '--admin-token (or VTR_ADMIN_TOKEN)'],
  ];
  for (const [value, from] of given) {
    if (value && /\s/.test(value)) throw new UsageError(`${from}: ${JSON.stringify(value)} has white space inside it, which no key or token has`);
  }
}

export async function buildClient(config: CliConfig, needs: { token?: boolean; secretKey?: boolean } = {}): Promise<ApiClient> {
  checkBaseUrl(config);
  checkCredentials(config);
  let { accessToken, secretKey } = config;
  // The session endpoints take the site's secret key as the bearer token too: a secret key given
  // without a token reads its own site's sessions, not the default site's (nor needs a token remotely).
  if (needs.token && !accessToken && secretKey) accessToken = secretKey;
  const onClockMode = (mode: string) => setEmulatedTimes(mode !== 'system');
  const base = createApiClient({ baseUrl: config.baseUrl, adminToken: config.adminToken, onClockMode });
  const wantToken = needs.token && !accessToken;
  const wantSecret = needs.secretKey && !secretKey;
  if (wantToken || wantSecret) {
    // The session API takes the secret key as its bearer too: either credential would do.
    const missing = wantToken ? '--token (or VTR_ACCESS_TOKEN) or --secret-key (or VTR_SECRET_KEY)' : '--secret-key (or VTR_SECRET_KEY)';
    if (!isLocal(config.baseUrl) && !config.adminToken) throw new UsageError(`${missing} is required for a remote base URL`);
    const site = await fetchSite(base, config.site).catch((err: unknown) => {
      // An emulator started with --admin-token: the keys themselves avoid the lookup the token is needed for.
      if (err instanceof ApiError && err.status === 401 && !config.adminToken) {
        throw new OperationError(`${err.message} (HTTP 401, unauthorized), to look up the site's keys; or give ${missing} instead`);
      }
      throw err;
    });
    if (wantSecret) secretKey = site.secret_key;
    // Only a command that needs a token looks one up. A site without a live one (its tokens
    // revoked, say, to see the 401) is read with its secret key, which the session API also takes
    // as the bearer: reading a session never adds a token.
    if (wantToken) {
      const tokens = await base.admin<Array<{ token: string; revoked_at: string | null }>>('GET', `/sites/${encodeURIComponent(site.site_id)}/tokens`);
      accessToken = tokens.find((t) => !t.revoked_at)?.token ?? site.secret_key;
    }
  } else if (config.site && (needs.token || needs.secretKey) && (isLocal(config.baseUrl) || config.adminToken)) {
    // The keys were given; an unknown --site is still an error where the management API can tell.
    await fetchSite(base, config.site);
  }
  return createApiClient({ baseUrl: config.baseUrl, accessToken, secretKey, adminToken: config.adminToken, onClockMode });
}

/** A 404 is reported as for every command: "--site: site … not found (HTTP 404, not_found); see `vtr sites list`". */
async function fetchSite(client: ApiClient, siteId: string | null): Promise<SiteKeys> {
  return client.admin<SiteKeys>('GET', siteId ? `/sites/${encodeURIComponent(siteId)}` : '/sites/default');
}

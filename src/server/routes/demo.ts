// GET /_vtr/demo: a sample site page using the agent; POST /_vtr/demo/signup: its form's server
// side, which runs a visitor check through the public API, as a site's own server would.
import type { Context, Hono } from 'hono';
import { VtrError } from '../../domain/errors.js';
import type { Site } from '../../domain/site.js';
import type { AppDeps } from '../deps.js';
import { clientIp } from '../client-ip.js';
import { DEFAULT_SITE, readForm, route } from '../http.js';
import { demoPage, resultPage } from '../demo/html.js';
import { adminTokenFromLink } from '../console/index.js';
import { consoleErrorPage } from '../console/router.js';
import { CONSOLE } from '../console/layout.js';

const MAX_FORM = 64 * 1024;

export function demoRoutes(app: Hono, deps: AppDeps): void {
  const { sites, clock, config } = deps;
  // `/_vtr/demo?admin_token=T`: kept in the console's cookie, so the page's own sign-up post is let in.
  if (config.adminToken) app.use('/_vtr/demo', adminTokenFromLink(config.adminToken));
  const siteOf = (id: string | undefined): Site => (id && id !== DEFAULT_SITE ? sites.get(id) : sites.defaultSite());
  // The demo is opened in a browser: its errors (an unknown ?site=) are a page there, JSON to API clients.
  const browserErrors = (handler: (c: Context) => Promise<Response>) => async (c: Context): Promise<Response> => {
    try {
      return await handler(c);
    } catch (err) {
      if (!(err instanceof VtrError) || !c.req.header('accept')?.includes('text/html')) throw err;
      return consoleErrorPage(c, deps, err, { href: `${CONSOLE}/sites`, label: 'See the sites in the console' });
    }
  };
  const html = (body: string, status = 200, extra: Record<string, string> = {}) =>
    new Response(body, { status, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...extra } });

  route(app, '/_vtr/demo', { GET: browserErrors(async (c) => html(demoPage(siteOf(c.req.query('site'))))) });

  route(app, '/_vtr/demo/signup', {
    POST: browserErrors(async (c) => {
      const form = await readForm(c, MAX_FORM);
      const field = (k: string) => (typeof form[k] === 'string' ? (form[k] as string).slice(0, 1000) : '');
      const site = siteOf(field('site') || undefined);
      const body: Record<string, unknown> = {
        secret_key: site.secret_key,
        // An agent that never answered leaves no probe_id: the check then reports it invalid.
        probe_id: field('probe_id'),
        ip: clientIp(c) ?? undefined,
      };
      for (const k of ['email', 'name', 'phone']) if (field(k).trim()) body[k] = field(k).trim();
      // Through the public endpoint (and its request log), exactly as a site's server calls it.
      const res = await app.request('/api/v1/event', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'vtr-demo-server' },
        body: JSON.stringify(body),
      });
      const result = (await res.json()) as Record<string, unknown>;
      // The check's own refusal passes through (a 429 under --rate-limit stays a 429, not a gateway error).
      const status = res.status === 200 ? 200 : res.status >= 400 && res.status < 500 ? res.status : 502;
      const retryAfter = res.headers.get('retry-after');
      const links = { otherSite: site.site_id !== sites.defaultSite().site_id };
      return html(resultPage(site, result, res.status, clock.mode !== 'system', links), status, retryAfter ? { 'retry-after': retryAfter } : {});
    }),
  });
}

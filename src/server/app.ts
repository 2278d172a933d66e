import { Hono } from 'hono';
import { getPath } from 'hono/utils/url';
import { shownId, VtrError } from '../domain/errors.js';
import { safeEqual } from '../domain/ids.js';
import type { AppDeps } from './deps.js';
import { CLI_OPTION_NAMES } from '../domain/option-names.js';
import { bearer, errorResponse, route, sendJson } from './http.js';
import { rateLimit } from './rate-limit.js';
import { publicSessionRoutes } from './routes/public-sessions.js';
import { adminSiteRoutes } from './routes/admin-sites.js';
import { adminSessionRoutes } from './routes/admin-sessions.js';
import { adminClockRoutes } from './routes/admin-clock.js';
import { adminStreamRoutes } from './routes/admin-stream.js';
import { publicEventRoutes } from './routes/public-event.js';
import { adminCheckRoutes } from './routes/admin-checks.js';
import { adminSimulateRoutes } from './routes/admin-simulate.js';
import { agentRoutes } from './routes/agent.js';
import { demoRoutes } from './routes/demo.js';
import { adminViewRoutes } from './routes/admin-views.js';
import { adminRuleRoutes } from './routes/admin-rules.js';
import { adminWebhookRoutes } from './routes/admin-webhooks.js';
import { adminLogRoutes } from './routes/admin-logs.js';
import { adminStateRoutes } from './routes/admin-state.js';
import { publicOpenApiRoutes } from './routes/public-openapi.js';
import { healthRoutes } from './routes/health.js';
import { withRequestLog } from './request-log.js';
import { loopbackHostOnly, sameOriginWrites } from './middleware/same-origin.js';
import { consoleRoutes } from './console/index.js';
import { createPublicApi } from './public-api.js';
import { withHeadLengths } from './head.js';
import { publicPathHint } from './public-path-hint.js';

const BASE = '/api/v1/';

/**
 * The request's path, as Hono reads it, with the public API's two slips of a client joining its base
 * URL and a path forgiven (servers in front of hosted APIs commonly merge slashes):
 * `…/api/v1/` + `/event` and a trailing slash (`/api/v1/session/{id}/`).
 */
export function requestPath(request: Request): string {
  const path = getPath(request);
  if (!path.startsWith(BASE) || (path.charCodeAt(BASE.length) !== 47 && path.charCodeAt(path.length - 1) !== 47)) return path;
  let rest = path.slice(BASE.length).replace(/^\/+/, '');
  if (rest.endsWith('/')) rest = rest.slice(0, -1);
  return BASE + rest;
}

/** The page a form was sent from (its Referer, when it is this server's), else the form's own path. */
function formPage(requestUrl: string, referer: string | undefined): string {
  const url = new URL(requestUrl);
  try {
    const from = new URL(referer ?? '');
    if (from.origin === url.origin) return from.pathname + from.search;
  } catch {
    // no or malformed Referer
  }
  return url.pathname;
}

/** The emulator's HTTP surface. Collaborators come in through `deps`; nothing is built here. */
export function createApp(deps: AppDeps): Hono {
  const app = new Hono({ getPath: requestPath });
  const names = deps.config.credentials ?? CLI_OPTION_NAMES;

  // A read that reached a damaged page of the database is a storage fault, not an unexpected error.
  app.onError((err, c) => errorResponse(c, deps.state?.faultOf(err) ?? err));

  // With --admin-token, the management API and console need it (the public API has its own auth).
  if (deps.config.adminToken) {
    const admin = deps.config.adminToken;
    const guard = async (c: Parameters<Parameters<typeof app.use>[1]>[0], next: () => Promise<void>) => {
      const given = bearer(c) ?? c.req.query('admin_token') ?? getCookie(c.req.header('cookie'), 'vtr_admin');
      if (!given || !safeEqual(given, admin)) {
        // A browser opening a console page is sent to `/`, which asks for the token and then comes back.
        if (/^\/_vtr\/(console|demo)/.test(c.req.path) && c.req.header('accept')?.includes('text/html')) {
          if (c.req.method === 'GET') {
            const url = new URL(c.req.url);
            url.searchParams.delete('admin_token');
            return c.redirect(`/?next=${encodeURIComponent(url.pathname + url.search)}`, 302);
          }
          // A console form sent without the cookie (cleared, or another token since): the form's
          // change is not made; the token form comes back to the page it was on.
          if (c.req.method === 'POST') return c.redirect(`/?next=${encodeURIComponent(formPage(c.req.url, c.req.header('referer')))}`, 303);
        }
        throw new VtrError(
          'unauthorized',
          given
            ? `the admin token given is not this emulator's (the one ${names.adminToken} was started with)`
            : `this emulator needs its admin token: Authorization: Bearer <admin token> (${names.sendAdminToken})`,
        );
      }
      await next();
    };
    app.use('/_vtr/api/*', guard);
    app.use('/_vtr/console/*', guard);
    // The demo runs checks as a site: on a network bind it is the admin's too.
    app.use('/_vtr/demo', guard);
    app.use('/_vtr/demo/*', guard);
  } else {
    for (const path of ['/', '/_vtr/api/*', '/_vtr/console', '/_vtr/console/*', '/_vtr/demo', '/_vtr/demo/*']) app.use(path, loopbackHostOnly(names.adminToken));
  }
  app.use('/_vtr/api/*', sameOriginWrites());
  // Which clock stamped the times in this answer: the CLI marks them "emulated" under a test clock.
  app.use('/_vtr/api/*', async (c, next) => {
    await next();
    c.res.headers.set('vtr-clock', deps.clock.mode);
  });
  app.use('/_vtr/demo/*', sameOriginWrites());

  if (deps.config.rateLimit) app.use('/api/v1/*', rateLimit(deps.config.rateLimit, deps.clock));

  healthRoutes(app, deps);

  publicOpenApiRoutes(app);
  const api = createPublicApi(deps);
  publicSessionRoutes(app, api);
  publicEventRoutes(app, api);
  agentRoutes(app, deps);
  demoRoutes(app, deps);
  adminCheckRoutes(app, deps);
  adminSimulateRoutes(app, deps);
  adminSiteRoutes(app, deps);
  adminSessionRoutes(app, deps);
  adminClockRoutes(app, deps);
  adminStreamRoutes(app, deps);
  adminViewRoutes(app, deps);
  adminRuleRoutes(app, deps);
  adminWebhookRoutes(app, deps);
  adminLogRoutes(app, deps);
  adminStateRoutes(app, deps);
  const consolePages = consoleRoutes(app, deps);
  // A mistyped console URL in a browser gets the console's page, not the API's JSON.
  app.notFound((c) =>
    c.req.method === 'GET' && (c.req.path === '/_vtr/console' || c.req.path.startsWith('/_vtr/console/'))
      ? consolePages.notFound(c)
      : sendJson(c, { code: 'not_found', message: notFoundMessage(c.req.method, c.req.path) }, 404),
  );
  // The one entry (the listener, app.request): each /api/v1 request (404s, 405s, 429s too) is logged,
  // and a HEAD is answered as its GET, body measured, then dropped.
  const logged = deps.requestLog ? withRequestLog(app.fetch, deps.requestLog, requestPath) : app.fetch;
  app.fetch = withHeadLengths(logged);
  return app;
}

function notFoundMessage(method: string, path: string): string {
  const shown = shownId(path, 200);
  // Only a path shown as it is gets a hint, which repeats it: never a quoted or cut one.
  const hint = shown === path ? publicPathHint(method, path) : null;
  return `no route for ${method} ${shown}${hint ? `; ${hint}` : ''}`;
}

function getCookie(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k !== name) continue;
    try {
      return decodeURIComponent(v.join('='));
    } catch {
      return null; // malformed percent-encoding: no token (a 401), never a 500
    }
  }
  return null;
}

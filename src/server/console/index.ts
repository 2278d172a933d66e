// The web console: server-rendered pages under /_vtr/console (guarded by --admin-token in app.ts),
// and `/`, which sends the browser there. Each page is one module with a register(router); a new
// page adds itself to PAGES and its nav entry to NAV (layout.ts).
import { VtrError } from '../../domain/errors.js';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { setCookie } from 'hono/cookie';
import { safeEqual } from '../../domain/ids.js';
import type { AppDeps } from '../deps.js';
import { bearer } from '../http.js';
import { html, raw } from './html.js';
import { CONSOLE, layout, STREAM_WORKER } from './layout.js';
import { browserScripts } from '../browser-scripts.js';
import { createConsoleRouter, type ConsoleRouter } from './router.js';
import { registerSessionsPage } from './sessions.js';
import { registerSessionDetailPage } from './session-detail.js';
import { registerChecksPages } from './checks.js';
import { registerSitesPage } from './sites.js';
import { registerTokensPage } from './tokens.js';
import { registerLogsPage } from './logs.js';
import { registerOutboxPage } from './outbox.js';
import { registerViewsPages } from './views.js';
import { registerRulesPages } from './rules.js';
import { registerWebhooksPage } from './webhooks.js';
import { registerWebhookEventsPage } from './webhook-events.js';
import { registerWebhookEventPage } from './webhook-event.js';

export { CONSOLE } from './layout.js';

export const PAGES: Array<(r: ConsoleRouter) => void> = [
  registerSessionsPage,
  registerSessionDetailPage,
  registerChecksPages,
  registerSitesPage,
  registerTokensPage,
  registerViewsPages,
  registerRulesPages,
  registerWebhooksPage,
  registerWebhookEventsPage,
  registerWebhookEventPage,
  registerLogsPage,
  registerOutboxPage,
];

export const ADMIN_COOKIE = 'vtr_admin';

/** Keeps the admin token in the browser's cookie, which the guard accepts on every console and demo path. */
export function rememberAdminToken(c: Context, token: string): void {
  setCookie(c, ADMIN_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'Strict' });
}

/**
 * A page opened with `?admin_token=T` (the guard let it in): the token goes into the cookie, so the
 * page's own links and forms, which carry no token, are let in too; and out of the address bar.
 */
export function adminTokenFromLink(admin: string): MiddlewareHandler {
  return async (c, next) => {
    const given = c.req.query('admin_token');
    if (given && c.req.method === 'GET' && safeEqual(given, admin)) {
      rememberAdminToken(c, given);
      const url = new URL(c.req.url);
      url.searchParams.delete('admin_token');
      return c.redirect(`${url.pathname}${url.search}`, 302);
    }
    await next();
  };
}

/** Mounts the console; answers with its 404 page for a console URL no page has. */
export function consoleRoutes(app: Hono, deps: AppDeps): { notFound(c: Context): Response } {
  const admin = deps.config.adminToken ?? null;

  // `/`: with an admin token, `/?admin_token=T` once sets the cookie; without one, a form asks for it.
  // `Authorization: Bearer <admin token>` is accepted as on every other console and management path.
  // `?next=` is the console page the browser asked for before the token: it opens once the token is in.
  app.get('/', (c) => {
    const next = consolePath(c.req.query('next'));
    if (admin) {
      const given = c.req.query('admin_token');
      const header = bearer(c);
      if (given !== undefined) {
        if (!safeEqual(given, admin)) return c.html(tokenForm(deps, next, 'That is not the admin token.').text, 401);
        rememberAdminToken(c, given);
      } else if (header !== null) {
        if (!safeEqual(header, admin)) return c.html(tokenForm(deps, next, 'That is not the admin token.').text, 401);
      } else if (!cookieOk(c, admin)) {
        return c.html(tokenForm(deps, next).text, 401);
      }
    }
    return c.redirect(next ?? `${CONSOLE}/sessions`, 302);
  });
  // The token form posts, so a token typed into it (a wrong one too) stays out of the address bar,
  // the history and the server's access logs.
  app.post('/', async (c) => {
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const next = consolePath(typeof form.next === 'string' ? form.next : undefined);
    if (admin) {
      const given = typeof form.admin_token === 'string' ? form.admin_token : '';
      if (!given || !safeEqual(given, admin)) return c.html(tokenForm(deps, next, 'That is not the admin token.').text, 401);
      rememberAdminToken(c, given);
    }
    return c.redirect(next ?? `${CONSOLE}/sessions`, 303);
  });
  app.get(CONSOLE, (c) => c.redirect(`${CONSOLE}/sessions`, 302));
  app.get(`${CONSOLE}/`, (c) => c.redirect(`${CONSOLE}/sessions`, 302));

  // Never from a cache: Back after rotating keys or deleting a webhook must not show the old keys or
  // the deleted webhook as current.
  app.use(`${CONSOLE}/*`, async (c, next) => {
    await next();
    c.res.headers.set('cache-control', 'no-store');
  });

  // A console link with ?admin_token= (the guard accepted it): keep it in the cookie, drop it from the URL.
  if (admin) app.use(`${CONSOLE}/*`, adminTokenFromLink(admin));

  // Its URL carries the script's hash (layout.ts); guarded as the pages are, so its stream is the admin's.
  app.get(STREAM_WORKER, (c) => c.body(browserScripts.get('console-stream-worker'), 200, { 'content-type': 'text/javascript; charset=utf-8' }));

  const router = createConsoleRouter(app, deps);
  for (const register of PAGES) register(router);
  return {
    notFound: (c) => router.errorPage(c, new VtrError('not_found', `the console has no page ${c.req.path.slice(0, 200)}`)),
  };
}

function cookieOk(c: Context, admin: string): boolean {
  const header = c.req.header('cookie') ?? '';
  const m = new RegExp(`(?:^|;\\s*)${ADMIN_COOKIE}=([^;]*)`).exec(header);
  if (!m) return false;
  try {
    return safeEqual(decodeURIComponent(m[1]), admin);
  } catch {
    return false; // malformed percent-encoding
  }
}

/** A console or demo path of this server to go back to, never another site (no open redirect). */
function consolePath(next: string | undefined): string | null {
  if (!next || next.length > 2000 || !/^\/_vtr\/(console|demo)(?:[/?]|$)/.test(next) || /[\\\s]|\/\/|admin_token=/.test(next)) return null;
  return next;
}

function tokenForm(deps: AppDeps, next: string | null, error?: string) {
  return layout({
    title: 'Admin token needed',
    nav: '',
    version: deps.config.version,
    body: html`<h1>This emulator needs its admin token</h1>
${error ? html`<div class="error" role="alert"><p>${error}</p></div>` : ''}
<form method="post" action="/" class="card">
<p>It was started with <code>--admin-token</code>. Enter the token once; the console keeps it in a cookie.</p>
<label for="admin_token">Admin token</label>
<input type="password" id="admin_token" name="admin_token" autocomplete="off" spellcheck="false" required autofocus${error ? raw(' aria-invalid="true"') : ''}>
${next ? html`<input type="hidden" name="next" value="${next}">` : ''}
<p><button type="submit">Open the console</button></p>
</form>`,
  });
}

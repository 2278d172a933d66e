// How console pages register: page() renders a full page, fragment() a piece of one (204 when
// there is nothing), form() handles a POST and redirects (303). Errors become HTML pages.
import type { Context, Hono } from 'hono';
import { VtrError } from '../../domain/errors.js';
import type { AppDeps } from '../deps.js';
import { readForm } from '../http.js';
import { html, Html, messageHtml } from './html.js';
import { CONSOLE, layout, NAV } from './layout.js';
import { assertSameOrigin } from '../middleware/same-origin.js';
import { degradedReason } from '../routes/health.js';

type Result = Html | Response;

/** Where an error page sends the reader next. */
export interface Back { href: string; label: string }

/** Extra for one page or form: `back` for its error page (by default the list its address is under). */
export interface RouteOptions { back?(c: Context): Back | null }

export interface ConsoleRouter {
  deps: AppDeps;
  /** GET `${CONSOLE}${path}` → a page (use render()). */
  page(path: string, handler: (c: Context) => Result | Promise<Result>, opts?: RouteOptions): void;
  /** GET → an HTML fragment (no layout), or null for 204. */
  fragment(path: string, handler: (c: Context) => Html | null | Promise<Html | null>): void;
  /**
   * POST of a same-origin form → the URL to go to next (303), or a Response (e.g. the form page again
   * with its error, when the POST path is also the page's GET path).
   */
  form(path: string, handler: (c: Context, form: Record<string, string>) => string | Response | Promise<string | Response>, opts?: RouteOptions): void;
  /** A full page for the given content. */
  render(o: { title: string; nav: string; body: Html; script?: Html }): Html;
  /** The console's page for an error (a mistyped console URL's 404 too). */
  errorPage(c: Context, err: unknown): Response;
}

// A webhook event's page lives under the webhooks in the nav.
const LIST_OF: Record<string, string> = { 'webhook-events': 'webhooks' };

/**
 * The list a console address is under (`/views/view_x/delete`: the saved views), so a view, webhook
 * or site that is gone leads back to what is there now; the sessions for an address no page has.
 */
export function listBack(path: string): Back {
  const first = path.startsWith(`${CONSOLE}/`) ? path.slice(CONSOLE.length + 1).split('/')[0] : '';
  const item = NAV.find((n) => n.key === (LIST_OF[first] ?? first)) ?? NAV[0];
  return { href: item.href, label: `Back to ${item.label.toLowerCase()}` };
}

/**
 * An error page's title: what happened, by its code. "Something went wrong" is kept for the
 * emulator's own failures; a refused request (a 4xx) is the reader's to change, and says so.
 */
function errorTitle(code: string | null, status: number): string {
  if (status === 404) return 'Not found';
  if (code === 'plan_required') return 'Needs the paid plan';
  if (status === 401 || status === 403) return 'Forbidden';
  if (status === 429) return 'Too many requests';
  if (status >= 400 && status < 500) return 'That could not be done';
  return 'Something went wrong';
}

/** A console-styled error page; `back` is where it sends the reader next (the sessions by default). */
export function consoleErrorPage(c: Context, deps: AppDeps, err: unknown, back: Back = { href: `${CONSOLE}/sessions`, label: 'Back to sessions' }): Response {
  const status = err instanceof VtrError ? err.status : 500;
  if (!(err instanceof VtrError)) console.error('vtr: console error', err);
  const message = err instanceof VtrError ? err.message : 'the emulator hit an unexpected error; see its log';
  const title = errorTitle(err instanceof VtrError ? err.code : null, status);
  const body = html`<h1>${title}</h1><div class="error" role="alert"><p>${messageHtml(message)}</p></div><p><a href="${back.href}">${back.label}</a></p>`;
  const page = layout({ title, nav: '', body, version: deps.config.version, degraded: degradedReason(deps), clock: deps.clock.mode });
  return c.html(page.text, status as 404);
}

export function createConsoleRouter(app: Hono, deps: AppDeps): ConsoleRouter {
  const render: ConsoleRouter['render'] = (o) => layout({ ...o, version: deps.config.version, degraded: degradedReason(deps), clock: deps.clock.mode });
  const errorPage = (c: Context, err: unknown, opts?: RouteOptions): Response =>
    consoleErrorPage(c, deps, err, opts?.back?.(c) ?? listBack(c.req.path));
  const send = (c: Context, r: Result) => (r instanceof Html ? c.html(r.text) : r);
  return {
    deps,
    render,
    errorPage,
    page(path, handler, opts) {
      app.get(`${CONSOLE}${path}`, async (c) => {
        try {
          return send(c, await handler(c));
        } catch (err) {
          return errorPage(c, err, opts);
        }
      });
    },
    fragment(path, handler) {
      app.get(`${CONSOLE}${path}`, async (c) => {
        try {
          const h = await handler(c);
          return h ? c.html(h.text) : c.body(null, 204);
        } catch (err) {
          if (err instanceof VtrError && err.status === 404) return c.body(null, 204);
          throw err;
        }
      });
    },
    form(path, handler, opts) {
      app.post(`${CONSOLE}${path}`, async (c) => {
        try {
          assertSameOrigin(c, 'console forms only accept posts from the console itself');
          const form = await readForm(c);
          const next = await handler(c, form);
          return typeof next === 'string' ? c.redirect(next, 303) : next;
        } catch (err) {
          return errorPage(c, err, opts);
        }
      });
    },
  };
}

// The console's page frame: nav, CSS and the few lines of shared browser JS (copy buttons, the live
// event stream, row/section refreshes). Pages supply a title, their nav key and the <main> content.
import { html, raw, type Html } from './html.js';
import { CONSOLE_CSS } from './style.js';
import { browserScripts } from '../browser-scripts.js';

export const CONSOLE = '/_vtr/console';
/** The SharedWorker holding the one event stream of all console tabs (src/browser/console-live.ts). */
export const STREAM_WORKER = `${CONSOLE}/stream-worker.js`;

export interface NavItem {
  key: string;
  label: string;
  href: string;
}

/** The navigation, in order. A new page adds its entry here. */
export const NAV: NavItem[] = [
  { key: 'sessions', label: 'Sessions', href: `${CONSOLE}/sessions` },
  { key: 'checks', label: 'Checks', href: `${CONSOLE}/checks` },
  { key: 'sites', label: 'Sites & keys', href: `${CONSOLE}/sites` },
  { key: 'tokens', label: 'Access tokens', href: `${CONSOLE}/tokens` },
  { key: 'views', label: 'Saved views', href: `${CONSOLE}/views` },
  { key: 'rules', label: 'Rules', href: `${CONSOLE}/rules` },
  { key: 'webhooks', label: 'Webhooks', href: `${CONSOLE}/webhooks` },
  { key: 'logs', label: 'Request log', href: `${CONSOLE}/logs` },
  { key: 'outbox', label: 'Mail outbox', href: `${CONSOLE}/outbox` },
];

export interface PageOptions {
  title: string;
  /** NAV key of the current page. */
  nav: string;
  body: Html;
  /** Page script, run after the shared helpers (trusted code only). */
  script?: Html;
  version?: string;
  /** The emulator's clock mode: frozen and manual mark every time as emulated. */
  clock?: string;
  /** Why writes fail now (a full disk, a read-only database): shown on every page, as /_vtr/health says. */
  degraded?: string | null;
}

export function layout(o: PageOptions): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${o.title} · vtr console</title>
<style>${raw(CONSOLE_CSS)}</style>
</head>
<body class="${o.clock && o.clock !== 'system' ? 'clock-emulated' : 'clock-system'}">
<a class="skip" href="#main">Skip to content</a>
<header class="top">
  <a class="brand" href="${CONSOLE}/sessions">vtr <span>console</span></a>
  <nav aria-label="Main">
    <ul>${NAV.map(
      (n) => html`<li><a href="${n.href}"${n.key === o.nav ? raw(' aria-current="page"') : ''}>${n.label}</a></li>`,
    )}</ul>
  </nav>
  ${o.clock && o.clock !== 'system' ? html`<span class="clock-badge" title="The emulator runs on --clock ${o.clock}: every time shown is the emulator's, not the real time">clock: ${o.clock} · times emulated</span>` : ''}
  <span id="live" class="live" title="Live updates from the event stream" data-worker="${STREAM_WORKER}?v=${browserScripts.hash('console-stream-worker')}" hidden>connecting…</span>
</header>
<main id="main" tabindex="-1">
${o.degraded ? html`<div class="error" role="alert" id="health-degraded"><p><strong>Writes are failing:</strong> ${o.degraded}</p></div>` : ''}
${o.body}
</main>
<footer class="foot">vtr ${o.version ?? ''} · local emulator · <a href="/api/v1/openapi.json">OpenAPI</a></footer>
<div id="announce" class="sr-only" role="status" aria-live="polite"></div>
<script>${raw(browserScripts.get('console'))}</script>
${o.script ? html`<script>${o.script}</script>` : ''}
</body>
</html>`;
}

/** A table inside a horizontally scrolling box (phone widths). */
export function scrollTable(caption: string, head: string[], rows: Html | Html[], opts: { bodyId?: string; empty?: string | Html; compact?: boolean } = {}): Html {
  return html`<div class="scroll" role="region" aria-label="${caption}" tabindex="0">
<table${opts.compact ? raw(' class="compact"') : ''}>
<caption class="sr-only">${caption}</caption>
<thead><tr>${head.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead>
<tbody${opts.bodyId ? html` id="${opts.bodyId}"` : ''}>${rows}</tbody>
</table>
</div>${opts.empty && (!Array.isArray(rows) || rows.length === 0) ? html`<p class="empty" id="${opts.bodyId ?? 'rows'}-empty">${opts.empty}</p>` : ''}`;
}

/** A status message at the top of a page (after a form post). */
export function flash(message: string | null | undefined): Html {
  return message ? html`<p class="flash" role="status">${message}</p>` : html``;
}

/**
 * The notice a page shows, hidden until its object is deleted elsewhere (`goneLive` in the browser
 * shows and announces it): `said` is what screen readers hear, `more` what the page adds after it.
 */
export function goneNotice(id: string, said: string, more: Html | string = ''): Html {
  return html`<div class="error" id="${id}" hidden data-announce="${said}">
<p>${said}${more ? html` ${more}` : ''}</p></div>`;
}

/**
 * The notice of an edit page whose object was changed elsewhere while what is typed differs from
 * what the page was loaded with (`changedLive` in the browser shows and announces it); a link loads
 * the new values. When nothing was typed, the form takes the new values and `followedSaid` is said.
 */
export function changedNotice(id: string, what: string, submit: string, href: string): Html {
  const said = `${what} was changed elsewhere: what is typed below is kept, and ${submit} will not write over that change unasked.`;
  return html`<div class="error" id="${id}" hidden data-announce="${said}">
<p>${said} <a href="${href}">Load the new values</a></p></div>`;
}

export const followedSaid = (what: string): string => `${what} was changed elsewhere: the form shows the new values.`;

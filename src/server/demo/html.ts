// Server-rendered pages of the demo (`/_vtr/demo`): a sample site with the agent and a sign-up
// form, and the result of the server-side visitor check its submit runs.
import type { Site } from '../../domain/site.js';
import { utcText } from '../../domain/time.js';
import { browserScripts } from '../browser-scripts.js';

export const esc = (v: unknown): string =>
  String(v ?? '').replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

const STYLE = `
  body { font: 15px/1.5 system-ui, sans-serif; margin: 0; color: #1d2430; background: #f6f7f9; }
  header { background: #1d2430; color: #fff; padding: 12px 24px; } header small { opacity: .7; }
  main { max-width: 980px; margin: 24px auto; padding: 0 24px; display: grid; gap: 24px; grid-template-columns: 3fr 2fr; }
  section, aside { background: #fff; border: 1px solid #dde1e7; border-radius: 8px; padding: 20px; min-width: 0; }
  @media (max-width: 720px) { main { grid-template-columns: 1fr; padding: 0 12px; margin: 12px auto; } }
  label { display: block; margin: 0 0 12px; } input { display: block; width: 100%; box-sizing: border-box; padding: 8px; font: inherit; }
  button { padding: 8px 16px; font: inherit; cursor: pointer; }
  code, .mono { font-family: ui-monospace, monospace; font-size: 13px; word-break: break-all; }
  .level { display: inline-block; padding: 2px 10px; border-radius: 12px; color: #fff; font-weight: 600; }
  .normal { background: #2e7d32; } .unwanted { background: #b8860b; } .suspicious { background: #8e24aa; } .invalid { background: #c62828; }
  table { border-collapse: collapse; width: 100%; margin-bottom: 16px; } td, th { text-align: left; padding: 3px 6px; border-bottom: 1px solid #eef0f3; vertical-align: top; }
  th { width: 40%; font-weight: 500; color: #555; } .hint { color: #666; font-size: 13px; }
`;

function layout(title: string, site: Site, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title><link rel="icon" href="data:,"><style>${STYLE}</style>
<script src="/agent.js" data-site-key="${esc(site.site_key)}"></script>
</head><body>
<header><strong>Acme Widgets</strong> <small>a sample page of "${esc(site.name)}" (${esc(site.site_id)}), served by the vtr emulator</small></header>
${body}
</body></html>`;
}

export function demoPage(site: Site): string {
  return layout('Sign up - vtr demo', site, `<main>
<section>
  <h1>Create your account</h1>
  <form id="signup" method="post" action="/_vtr/demo/signup">
    <input type="hidden" name="site" value="${esc(site.site_id)}">
    <label>Email <input name="email" type="text" inputmode="email" autocomplete="email" placeholder="jane@example.com"></label>
    <label>Full name <input name="name" type="text" autocomplete="name" placeholder="Jane Doe"></label>
    <label>Phone <input name="phone" type="text" autocomplete="tel" placeholder="(212) 664-7665"></label>
    <button type="submit" data-vtr-site-key="${esc(site.site_key)}">Sign up</button>
  </form>
  <p class="hint">On submit, this page's server runs a visitor check (<code>POST /api/v1/event</code> with the
  form's <code>probe_id</code> and the site's secret key) and shows the result. Try
  <code>someone@mailinator.com</code> (disposable) or a phone like <code>+44 20 7946 0958</code>;
  <code>vtr testvalues</code> lists every reserved value.</p>
</section>
<aside>
  <h2>What the agent did</h2>
  <table>
    <tr><th>probe_id</th><td class="mono" id="probe-id">waiting...</td></tr>
    <tr><th>session</th><td class="mono" id="session-id">-</td></tr>
  </table>
  <button id="convert" type="button">Send a "conversion" event</button>
  <p class="mono" id="event-status" role="status"></p>
  <p class="hint">The agent recorded this page view. On your own pages (any origin) the tag is
  <code>&lt;script src="<span class="emulator-origin">http://127.0.0.1:8787</span>/agent.js" data-site-key="${esc(site.site_key)}"&gt;&lt;/script&gt;</code>. It
  filled a hidden <code>probe_id</code> into the form because its button carries <code>data-vtr-site-key</code>.
  The button calls <code>vtr.event('conversion', { value: 49 })</code>.</p>
</aside>
</main>
<script>${browserScripts.get('demo')}</script>`);
}

type Section = Record<string, unknown> | null;

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/;
/** A time shown to a person names its zone, and says so when the emulator's clock is not the real one. */
const shownTime = (v: unknown, emulated: boolean): unknown =>
  typeof v === 'string' && TIMESTAMP.test(v) ? `${utcText(v)}${emulated ? ' (emulated)' : ''}` : v;

function sectionTable(name: string, section: Section, emulated: boolean): string {
  if (!section) return `<h3>${esc(name)}</h3><p class="hint">not sent</p>`;
  const rows = Object.entries(section)
    .map(([k, v]) => `<tr><th>${esc(k)}</th><td class="mono">${esc(v === null ? '-' : typeof v === 'object' ? JSON.stringify(v) : shownTime(v, emulated))}</td></tr>`)
    .join('');
  return `<h3>${esc(name)}</h3><table data-section="${esc(name)}">${rows}</table>`;
}

/** Where the result page sends a person: the console's pages, and the CLI command for the session. */
export interface ResultLinks {
  /** The demo's site is not the default one: CLI commands need `--site`. */
  otherSite: boolean;
}

export function resultPage(site: Site, result: Record<string, unknown>, status: number, emulated: boolean, links: ResultLinks = { otherSite: false }): string {
  const back = `<p><a href="/_vtr/demo?site=${encodeURIComponent(site.site_id)}">Sign up again</a></p>`;
  if (status !== 200) {
    return layout('Check failed - vtr demo', site, `<main><section><h1>The check failed</h1>
<p>HTTP ${status}: <code>${esc(result.code)}</code> ${esc(result.message)}</p>${back}</section></main>`);
  }
  const level = String(result.risk_level);
  const risks = (result.risks as string[]) ?? [];
  const sessionId = result.session_id as string | null;
  const siteFlag = links.otherSite ? ` --site ${site.site_id}` : '';
  // The console's session page lists the checks and webhook events of the session: the rest of the flow.
  const session = sessionId
    ? `<a class="mono" data-testid="session-id" href="/_vtr/console/sessions/${encodeURIComponent(sessionId)}">${esc(sessionId)}</a>
       <span class="hint">(<code>vtr session get ${esc(sessionId)}${esc(siteFlag)}</code>)</span>`
    : '<span data-testid="session-id">none (the probe was not valid)</span>';
  const rules = (result.rules as Array<{ id?: unknown; action?: unknown }> | undefined) ?? [];
  return layout('Check result - vtr demo', site, `<main>
<section>
  <h1>Visitor check: <span class="level ${esc(level)}" data-testid="risk-level">${esc(level)}</span></h1>
  <table>
    <tr><th>outcome</th><td class="mono"><span data-testid="outcome">${esc(result.outcome)}</span>${result.review ? ' <span data-testid="review">+ review</span>' : ''}</td></tr>
    <tr><th>rules matched</th><td class="mono" data-testid="rules">${rules.length ? esc(rules.map((r) => `${r.id} (${r.action})`).join(', ')) : 'none'}</td></tr>
    <tr><th>check</th><td><a class="mono" data-testid="check-id" href="/_vtr/console/checks/${encodeURIComponent(String(result.id))}">${esc(result.id)}</a></td></tr>
    <tr><th>session</th><td>${session}</td></tr>
    <tr><th>risks</th><td class="mono" data-testid="risks">${risks.length ? esc(risks.join(', ')) : 'none'}</td></tr>
    <tr><th>created_at</th><td class="mono">${esc(shownTime(result.created_at, emulated))}</td></tr>
  </table>
  ${back}
  <p class="hint">Webhooks: a saved view with trigger_webhooks that this session now matches sends a webhook;
  the session's page in the console lists them (<code>vtr webhooks tail</code> shows the attempts live).</p>
</section>
<aside aria-labelledby="found">
  <h2 id="found">What the check found</h2>
  ${['device', 'ip', 'email', 'phone', 'address'].map((k) => sectionTable(k, result[k] as Section, emulated)).join('\n')}
</aside>
</main>`);
}

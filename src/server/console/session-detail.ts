// One session: every field, its custom events, the visitor checks made with its probes, and its
// webhook events (session-webhooks.ts). Refreshes itself when the session changes.
import { SESSION_FIELDS, type Session } from '../../domain/session.js';
import { html, scriptJson } from './html.js';
import { CONSOLE, goneNotice, scrollTable } from './layout.js';
import { risk, time, value } from './fields.js';
import { checkRow, CHECK_HEAD } from './checks.js';
import { sessionWebhookEvents } from './session-webhooks.js';
import type { ConsoleRouter } from './router.js';

const TIMES = new Set(['created_at', 'updated_at']);

export function registerSessionDetailPage(r: ConsoleRouter): void {
  const { deps } = r;
  r.page('/sessions/:id', (c) => {
    const s: Session = deps.sessions.get(c.req.param('id') ?? '');
    const checks = deps.checks.list({ sessionId: s.session_id, limit: 10_000 });
    const body = html`<p><a href="${CONSOLE}/sessions">← Sessions</a></p>
${goneNotice('session-gone', `The session ${s.session_id} is no longer here: a state reset or import, or its site's deletion, removed it.`, html`<a href="${CONSOLE}/sessions">See the sessions there are now</a>.`)}
<div id="session-body">
<h1>Session <span class="mono">${s.session_id}</span></h1>
<p>${risk(s.risk_level)} <span class="muted">${summary(s)}</span></p>
<p id="session-actions">Actions taken: ${s.actions.length ? html`<strong>${s.actions.join(', ')}</strong>` : html`<span class="muted">none (no visitor check matched a rule)</span>`}</p>
<div class="grid2">
<section class="card" aria-labelledby="fields-h">
<h2 id="fields-h">Fields</h2>
<dl class="fields">${SESSION_FIELDS.map((f) => html`<dt>${f}</dt><dd>${TIMES.has(f) ? time(s[f] as string) : value(s[f])}</dd>`)}</dl>
</section>
<div>
<section class="card" aria-labelledby="events-h">
<h2 id="events-h">Custom events</h2>
${s.custom_events.length
  ? html`<ol>${s.custom_events.map((e) => html`<li>${e}</li>`)}</ol>`
  : html`<p class="empty">None yet. Add one with <code>vtr session event ${s.session_id} signup</code>.</p>`}
</section>
<section aria-labelledby="checks-h">
<h2 id="checks-h">Visitor checks</h2>
${checks.length ? scrollTable(`Visitor checks of ${s.session_id}`, CHECK_HEAD, checks.map(checkRow)) : html`<p class="empty">No visitor check used this session's probes.</p>`}
</section>
${sessionWebhookEvents(deps, s)}
</div>
</div>
</div>`;
    const script = html`vtrPage.sessionDetail(${scriptJson({ id: s.session_id, site: s.site_id })});`;
    return r.render({ title: `Session ${s.session_id}`, nav: 'sessions', body, script });
  });
}

// Each word says what it is: a bare "normal" beside the risk badge read as a second risk level.
function summary(s: Session): string {
  const parts = [s.engagement_level && `engagement: ${s.engagement_level}`, s.channel && `channel: ${s.channel}`, `site: ${s.site_name ?? s.site_id}`];
  return parts.filter(Boolean).join(' · ');
}

// Visitor checks: the list (live, paged) and one check with each of its sections.
import type { StoredCheck } from '../../checks/run-check.js';
import type { Site } from '../../domain/site.js';
import { notFound } from '../../domain/errors.js';
import { html, scriptJson, type Html } from './html.js';
import { CONSOLE, scrollTable } from './layout.js';
import { goneCursor, pageOf, pager, risk, sitePicker, time, value } from './fields.js';
import type { ConsoleRouter } from './router.js';
import { probeIdProblem } from '../../domain/ids.js';

const PAGE_SIZE = 50;
const SECTIONS = ['device', 'ip', 'email', 'phone', 'address'] as const;
export const CHECK_HEAD = ['Created', 'Check', 'Risk', 'Outcome', 'Rules', 'Risks', 'Checked', 'Session'];

const risksOf = (c: StoredCheck) => (Array.isArray(c.risks) ? c.risks : []);

/** The site's decision: a check stored before rules existed has none. */
function outcome(c: StoredCheck): Html {
  if (!c.outcome) return value(null);
  return html`<span class="outcome-${c.outcome}">${c.outcome}</span>${c.review ? html` · review` : ''}`;
}
// A built-in rule's id says what it is (`anonymous`); a custom rule's (`rule_…`) does not: its name does, the id follows.
const rulesOf = (c: StoredCheck) =>
  (Array.isArray(c.rules) ? c.rules.map((m) => (m.type === 'custom' && m.name ? `${m.name} (${m.action}, ${m.id})` : `${m.id} (${m.action})`)) : []);

export function checkRow(c: StoredCheck): Html {
  const checked = SECTIONS.filter((s) => c[s] != null);
  return html`<tr id="check-${c.id}" data-announce="New check ${c.id}">
<td>${time(c.created_at)}</td>
<td><a class="mono" href="${CONSOLE}/checks/${encodeURIComponent(c.id)}">${c.id}</a></td>
<td>${risk(c.risk_level)}</td><td>${outcome(c)}</td><td class="wrap">${value(rulesOf(c))}</td><td class="wrap narrow">${value(risksOf(c))}</td><td class="wrap narrow">${value(checked)}</td>
<td>${c.session_id ? html`<a class="mono" href="${CONSOLE}/sessions/${encodeURIComponent(c.session_id)}">${c.session_id}</a>` : value(null)}</td>
</tr>`;
}

// A section's timestamps (device.probe_created_at) are shown as every console time is: with the zone.
const isTime = (key: string, v: unknown): v is string => key.endsWith('_at') && typeof v === 'string';

// "malformed" alone leaves a pasted id that looks right a mystery: say what is wrong with it.
function malformedNote(d: Record<string, unknown>): Html | string {
  const problem = d.invalid_reason === 'malformed' && typeof d.probe_id === 'string' ? probeIdProblem(d.probe_id) : null;
  return problem ? html` <span class="muted">(${problem})</span>` : '';
}

function section(name: string, data: unknown): Html {
  const heading = html`<h2 id="sec-${name}">${name}</h2>`;
  if (data == null || typeof data !== 'object') {
    return html`<section class="card" aria-labelledby="sec-${name}">${heading}<p class="empty">Not sent.</p></section>`;
  }
  return html`<section class="card" aria-labelledby="sec-${name}">${heading}
<dl class="fields">${Object.entries(data as Record<string, unknown>).map(([k, v]) => html`<dt>${k}</dt><dd>${isTime(k, v) ? time(v) : value(v)}${k === 'invalid_reason' ? malformedNote(data as Record<string, unknown>) : ''}</dd>`)}</dl>
</section>`;
}

/** Nothing listed: none anywhere, none of the picked site (run one for it), or no such site. */
function noChecks(sites: Site[], siteId: string | undefined): Html {
  if (!siteId) return html`No checks yet: run one with <code>vtr check --email a@example.com</code>.`;
  const site = sites.find((s) => s.site_id === siteId);
  if (!site) return html`No checks: there is no site ${siteId} (deleted, or from another emulator).`;
  return html`No checks of ${site.name} (${site.site_id}) yet: run one for it with <code>vtr check --site ${site.site_id} --email a@example.com</code>.`;
}

export function registerChecksPages(r: ConsoleRouter): void {
  const { deps } = r;
  r.page('/checks', (c) => {
    const site = c.req.query('site') || undefined;
    const before = c.req.query('before') || undefined;
    // A cursor that names nothing (pruned, deleted) shows the newest checks rather than an error.
    const from = before && deps.checks.get(before) ? before : undefined;
    const { rows: checks, more } = pageOf(deps.checks.list({ siteId: site, limit: PAGE_SIZE + 1, before: from }), PAGE_SIZE);
    const sites = deps.sites.list();
    const body = html`<h1>Visitor checks</h1>
${goneCursor(before, from)}
<form class="filter" method="get" action="${CONSOLE}/checks">
${sitePicker(sites, site)}
<div><button type="submit">Show</button></div>
</form>
<div id="check-list">${scrollTable('Visitor checks, newest first', CHECK_HEAD, checks.map(checkRow), { bodyId: 'rows', compact: true, empty: noChecks(sites, site) })}
${pager(`${CONSOLE}/checks`, { site }, { before: from, lastId: checks.at(-1)?.id, more })}</div>`;
    const script = from
      ? undefined
      : html`vtrPage.checks(${scriptJson(site ?? '')});`;
    return r.render({ title: 'Visitor checks', nav: 'checks', body, script });
  });

  r.fragment('/checks/:id/row', (c) => {
    const check = deps.checks.get(c.req.param('id') ?? '');
    const site = c.req.query('site');
    return check && (!site || check.site_id === site) ? checkRow(check) : null;
  });

  r.page('/checks/:id', (c) => {
    const check = deps.checks.get(c.req.param('id') ?? '');
    if (!check) throw notFound('check');
    const { site_id: _site, ...result } = check;
    const body = html`<p><a href="${CONSOLE}/checks">← Visitor checks</a></p>
<h1>Check <span class="mono">${check.id}</span></h1>
<p>${risk(check.risk_level)} · outcome ${outcome(check)} · rules: ${value(rulesOf(check))} <span class="muted">${time(check.created_at)} · risks: ${value(risksOf(check))} · session:
${check.session_id ? html`<a class="mono" href="${CONSOLE}/sessions/${encodeURIComponent(check.session_id)}">${check.session_id}</a>` : 'none'}</span></p>
<div class="grid2">${SECTIONS.map((s) => section(s, check[s]))}</div>
<details><summary>Result JSON</summary><pre>${JSON.stringify(result, null, 2)}</pre></details>`;
    return r.render({ title: `Check ${check.id}`, nav: 'checks', body });
  });
}

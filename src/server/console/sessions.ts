// Sessions list: the filter language (`where`), a site picker, cursor paging, and live rows.
import type { Context } from 'hono';
import type { Session } from '../../domain/session.js';
import { FilterError, formatFilterError, matchesFilter, parseFilter } from '../../domain/filter/index.js';
import { VtrError } from '../../domain/errors.js';
import { ipWithoutPort, isIpAddress, lookupIp } from '../../domain/ip-intel.js';
import { html, raw, scriptJson, type Html } from './html.js';
import { CONSOLE, scrollTable } from './layout.js';
import { goneCursor, pageOf, pager, risk, sitePicker, time, value } from './fields.js';
import type { ConsoleRouter } from './router.js';
import { eventHref, webhookHref } from './webhook-fields.js';

const PAGE_SIZE = 50;
// Fits 1280 px: channel with source, IP with country (one cell each, the second on its own line).
const HEAD = ['Created', 'Session', 'Risk', 'Engagement', 'Channel / source', 'IP / country', 'Device', 'Views', 'Risks'];

export function sessionRow(s: Session): Html {
  return html`<tr id="row-${s.session_id}" data-announce="New session ${s.session_id}">
<td>${time(s.created_at)}</td>
<td><a class="mono" href="${CONSOLE}/sessions/${encodeURIComponent(s.session_id)}">${s.session_id}</a></td>
<td>${risk(s.risk_level)}</td><td>${value(s.engagement_level)}</td>
<td>${value(s.channel)}<span class="sub">${value(s.source)}</span></td>
<td class="brk"><span class="mono">${value(s.ip)}</span><span class="sub">${value(s.country_code)}</span></td>
<td>${value(s.device_type)}</td><td>${value(s.page_views)}</td><td class="risks">${value(s.risks)}</td>
</tr>`;
}

/** A filter that does not parse: the message, and the filter with a caret under the position. */
export function filterError(src: string, err: { message: string; position: number }): Html {
  return html`<div class="error" role="alert" id="filter-error">
<p><strong>That filter does not parse:</strong> ${err.message}</p>
<pre aria-label="The filter, with a caret under the problem">${formatFilterError(src, err)}</pre>
</div>`;
}

const ID = /^(ses|chk|prb)_[0-9A-Za-z]{8,64}$/;

/** The console page of a session, check or probe id (a probe's session), or null for anything else. */
function idTarget(deps: ConsoleRouter['deps'], text: string): string | null {
  const m = ID.exec(text);
  if (!m) return null;
  const sessionPage = (id: string) => `${CONSOLE}/sessions/${encodeURIComponent(id)}`;
  if (m[1] === 'chk') return `${CONSOLE}/checks/${encodeURIComponent(text)}`;
  if (m[1] === 'ses') return sessionPage(text);
  const probe = deps.sessions.probe(text);
  if (!probe) throw new VtrError('not_found', `no probe ${text}: it was never recorded here, or its site was deleted`);
  return sessionPage(probe.session_id);
}

const LIST_ID = /^(site|view)_[0-9A-Za-z]{8,64}$/;

/**
 * A site or saved view id (copied from its page): that site's sessions, or the view's matching
 * sessions, as its "Matching sessions" link lists them. One that names nothing gets a note.
 */
function listTarget(deps: ConsoleRouter['deps'], text: string): { to: string } | { note: Html } | null {
  const m = LIST_ID.exec(text);
  if (!m) return null;
  const list = (q: Record<string, string>) => ({ to: `${CONSOLE}/sessions?${new URLSearchParams(q)}` });
  if (m[1] === 'site') {
    if (deps.sites.find(text)) return list({ site: text });
    return { note: html`<div class="error" role="alert" id="filter-error"><p><strong>${text} is a site id</strong>, but no site has it here (deleted, or from another emulator): see the <a href="${CONSOLE}/sites">sites</a>.</p></div>` };
  }
  try {
    const v = deps.views?.get(text);
    if (v) return list({ where: v.filter, site: v.site_id });
  } catch (err) {
    if (!(err instanceof VtrError) || err.code !== 'not_found') throw err;
  }
  return { note: html`<div class="error" role="alert" id="filter-error"><p><strong>${text} is a saved view id</strong>, but no saved view has it here (deleted, or from another emulator): see the <a href="${CONSOLE}/views">saved views</a>.</p></div>` };
}

/**
 * An IP address (from a log, a check, a request; with a port or in brackets too): the filter that
 * lists its sessions, `ip = "…"`, the address written as sessions store it (2001:DB8:0::1 → 2001:db8::1).
 */
function ipFilter(text: string): string | null {
  const bare = ipWithoutPort(text);
  return isIpAddress(bare) ? `ip = "${lookupIp(bare).ip}"` : null;
}

const WEBHOOK_ID = /^(wh|msg)_[0-9A-Za-z]{8,64}$/;

/**
 * A webhook or webhook event id pasted into the filter (from a delivery's webhook-id header, a mail):
 * not something sessions are looked up by, so say what it is and link to where it is shown.
 */
function webhookIdNote(deps: ConsoleRouter['deps'], text: string): Html | null {
  const m = WEBHOOK_ID.exec(text);
  if (!m) return null;
  const hook = m[1] === 'wh';
  let known = false;
  try {
    if (deps.webhooks) known = Boolean(hook ? deps.webhooks.get(text) : deps.webhooks.event(text));
  } catch (err) {
    if (!(err instanceof VtrError) || err.code !== 'not_found') throw err;
  }
  const what = hook ? 'a webhook id' : 'a webhook event id';
  const link = known
    ? html`<a class="mono" href="${hook ? webhookHref(text) : eventHref(text)}">Open ${hook ? 'webhook' : 'webhook event'} ${text}</a>, ${hook ? 'with its events' : 'with its attempts and its session'}.`
    : html`None is recorded here (deleted, or from another emulator): see the <a href="${CONSOLE}/webhooks">webhooks page</a>.`;
  return html`<div class="error" role="alert" id="filter-error">
<p><strong>${text} is ${what}</strong>, not a filter: this page finds sessions, by a filter or a session, check or probe id. ${link}</p>
</div>`;
}

export function registerSessionsPage(r: ConsoleRouter): void {
  const { deps } = r;
  const query = (c: Context) => ({ where: (c.req.query('where') ?? '').trim(), site: c.req.query('site') || undefined });

  r.page('/sessions', (c) => {
    const { where, site } = query(c);
    // An id pasted into the filter (what a developer has at hand: a probe id from the browser, a
    // session or check id from a log) goes straight to its page.
    const jump = idTarget(deps, where);
    if (jump) return c.redirect(jump, 302);
    const listed = listTarget(deps, where);
    if (listed && 'to' in listed) return c.redirect(listed.to, 302);
    const ip = ipFilter(where);
    if (ip) return c.redirect(`${CONSOLE}/sessions?${new URLSearchParams({ where: ip, ...(site ? { site } : {}) })}`, 302);
    const before = c.req.query('before') || undefined;
    let sessions: Session[] = [];
    let more = false;
    // A cursor that names nothing (deleted) shows the newest sessions, and says so.
    const from = before && deps.sessions.find(before) ? before : undefined;
    let error: Html | string = (listed && 'note' in listed ? listed.note : null) ?? webhookIdNote(deps, where) ?? '';
    if (!error) try {
      ({ rows: sessions, more } = pageOf(deps.sessions.list({ siteId: site, where: where || undefined, limit: PAGE_SIZE + 1, before: from }), PAGE_SIZE));
    } catch (err) {
      if (!(err instanceof VtrError) || err.code !== 'invalid_filter') throw err;
      error = filterError(where, { message: err.message, position: Number(err.details?.position ?? 0) });
    }
    const sites = deps.sites.list();
    // A refused filter keeps the focus in its field (as the views and rules forms do), to fix it there.
    const body = html`<h1>Sessions</h1>
${goneCursor(before, from)}
<form class="filter" method="get" action="${CONSOLE}/sessions" role="search">
<div class="grow"><label for="where">Filter</label>
<input type="search" id="where" name="where" value="${where}" placeholder="risk_level in (suspicious, invalid) and channel = paid" spellcheck="false" autocomplete="off" aria-describedby="where-help${error ? ' filter-error' : ''}"${error ? raw(' aria-invalid="true" autofocus') : ''}></div>
${sitePicker(sites, site)}
<div><button type="submit">Apply</button></div>
</form>
<p id="where-help" class="muted">Clauses like <code>field op value</code> joined by <code>and</code>/<code>or</code>; ops <code>= != &lt; &lt;= &gt; &gt;= in (…) not in (…) contains is null is not null</code>. Or paste a session, check or probe id to open it, or a site or saved view id or an IP address to list its sessions.</p>
${error}
<div id="session-list">${error ? '' : scrollTable('Sessions, newest first', HEAD, sessions.map(sessionRow), { bodyId: 'rows', compact: true, empty: where || site ? html`No sessions match this filter.` : html`No sessions yet: load a page with the agent, or make one with <code>vtr sessions create</code>.` })}
${pager(`${CONSOLE}/sessions`, { where: where || undefined, site }, { before: from, lastId: sessions.at(-1)?.session_id, more })}</div>`;
    // Live rows only on the first page; the server decides whether a session matches the filter.
    const script = from || error
      ? undefined
      : html`vtrPage.sessions(${scriptJson({ where, site: site ?? '' })});`;
    return r.render({ title: 'Sessions', nav: 'sessions', body, script });
  });

  // One row, when the session matches the page's filter and site (204 otherwise).
  r.fragment('/sessions/:id/row', (c) => {
    const { where, site } = query(c);
    const session = deps.sessions.find(c.req.param('id') ?? '');
    if (!session || (site && session.site_id !== site)) return null;
    if (where) {
      try {
        if (!matchesFilter(parseFilter(where), session)) return null;
      } catch (err) {
        if (err instanceof FilterError) return null;
        throw err;
      }
    }
    return sessionRow(session);
  });
}

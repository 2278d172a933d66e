// Saved views, per site: list, create, edit, delete. The forms post to their own page's path, so a
// refused filter re-renders the form in place with the error and a caret under its position. The
// list follows views and sites changed elsewhere, and a view's page says when it is deleted
// elsewhere (console-pages.ts).
import type { Context } from 'hono';
import type { SavedView } from '../../domain/webhooks.js';
import type { Site } from '../../domain/site.js';
import { VtrError } from '../../domain/errors.js';
import { ViewCreate, ViewUpdate } from '../../api/management/views.js';
import { validate } from '../validate.js';
import type { ViewService } from '../../webhooks/views.js';
import { html, messageHtml, raw, scriptJson, type Html } from './html.js';
import { changedNotice, CONSOLE, flash, followedSaid, goneNotice, scrollTable } from './layout.js';
import { isStale, staleProblem, versionField } from './stale.js';
import { filterField, filterSent, requiredSite, siteMissing, siteOptions, time } from './fields.js';
import { filterError } from './sessions.js';
import { pick } from './webhook-fields.js';
import type { ConsoleRouter } from './router.js';

interface ViewValues {
  site_id?: string;
  name: string;
  filter: string;
  trigger_webhooks: boolean;
}

const viewHref = (id: string) => `${CONSOLE}/views/${encodeURIComponent(id)}`;
const DONE: Record<string, string> = { created: 'Created the saved view.', updated: 'Saved the view.', deleted: 'Deleted the saved view (its webhook events stay).' };

/** A refused form input becomes a message next to the form; anything else is a real error. */
function formProblem(err: unknown): { field: string; html: Html } {
  if (!(err instanceof VtrError) || !['invalid_filter', 'invalid_request', 'not_found'].includes(err.code)) throw err;
  // not_found: the picked site (deleted meanwhile, or a hand-made post).
  const field = err.code === 'not_found' ? 'site_id' : String(err.details?.field ?? '');
  return { field, html: html`<div class="error" role="alert" id="form-error"><p>${messageHtml(err.message)}</p></div>` };
}

function viewForm(o: { action: string; submit: string; values: ViewValues; sites?: Site[]; problem?: { field: string; html: Html }; siteMissing?: boolean; version?: Html }): Html {
  const { values: v, problem } = o;
  // The refused field gets focus, so fixing it is one keystroke away.
  // A refused field is described by the error too; ids are constants, safe unescaped.
  const bad = (f: string, help?: string) => {
    const refused = problem?.field === f, by = [help, refused ? 'form-error' : ''].filter(Boolean).join(' ');
    return raw((by ? ` aria-describedby="${by}"` : '') + (refused ? ' aria-invalid="true" autofocus' : ''));
  };
  return html`<form method="post" action="${o.action}" class="stack card" aria-label="${o.submit}">
${problem?.html ?? ''}${o.version ?? ''}
${o.sites ? html`<div><label for="view-site">Site</label>
<select id="view-site" name="site_id" required${o.siteMissing ? raw(' aria-invalid="true" aria-describedby="site-missing"') : bad('site_id')}>${siteOptions(o.sites, v.site_id)}</select></div>` : ''}
<div><label for="view-name">Name</label><input type="text" id="view-name" name="name" value="${v.name}" required maxlength="200"${bad('name')}></div>
<div><label for="view-filter">Filter</label>
${filterField('view-filter', v.filter, 'risk_level in (suspicious, invalid) and channel = paid', bad('filter', 'view-filter-help'))}</div>
<p class="muted small" id="view-filter-help">The language of the sessions filter: <code>field op value</code> clauses, <code>and</code>/<code>or</code>, parentheses.</p>
<div class="check"><input type="checkbox" id="view-trigger" name="trigger_webhooks"${v.trigger_webhooks ? raw(' checked') : ''}>
<label for="view-trigger">Trigger webhooks when a session newly matches</label></div>
<div><button type="submit">${o.submit}</button></div>
</form>`;
}

/** How a row's controls name their view: its name, and its id, as two views may share a name. */
const viewName = (v: SavedView): string => `${v.name} (${v.saved_view_id})`;

function viewRow(v: SavedView): Html {
  const sessions = `${CONSOLE}/sessions?${new URLSearchParams({ where: v.filter, site: v.site_id })}`;
  return html`<tr id="view-${v.saved_view_id}" data-announce="New saved view ${viewName(v)}" data-gone="Saved view ${viewName(v)} deleted">
<td><a href="${viewHref(v.saved_view_id)}" aria-label="${viewName(v)}">${v.name}</a><br><span class="mono muted">${v.saved_view_id}</span></td>
<td class="wrap"><code>${v.filter}</code></td><td>${v.trigger_webhooks ? 'yes' : 'no'}</td><td>${time(v.created_at)}</td>
<td><a href="${sessions}" aria-label="Matching sessions of ${viewName(v)}">Matching sessions</a> · <a href="${viewHref(v.saved_view_id)}" aria-label="Edit ${viewName(v)}">Edit</a>
<form method="post" action="${viewHref(v.saved_view_id)}/delete" class="inline" data-confirm="Delete the saved view ${v.name}?">
<button type="submit" class="danger small" aria-label="Delete ${viewName(v)}">Delete</button></form></td>
</tr>`;
}

const readValues = (form: Record<string, string>): ViewValues => ({
  site_id: form.site_id,
  name: form.name ?? '',
  filter: filterSent(form.filter),
  trigger_webhooks: form.trigger_webhooks === 'on',
});

export function registerViewsPages(r: ConsoleRouter): void {
  const { deps } = r;
  const views = (): ViewService => {
    if (!deps.views) throw new VtrError('not_found', 'saved views are not available in this emulator');
    return deps.views;
  };

  const listPage = (c: Context, form?: { values: ViewValues; problem: { field: string; html: Html } }) => {
    const sites = deps.sites.list();
    const values = form?.values ?? { site_id: c.req.query('site') || sites[0]?.site_id, name: '', filter: '', trigger_webhooks: true };
    const missing = form ? '' : siteMissing(c.req.query('site'), sites, 'pick the site of the new saved view below.');
    const body = html`<h1>Saved views</h1>
${missing}
${flash(pick(DONE, c.req.query('done')))}
<p class="muted">A saved view is a filter over sessions. With <em>trigger webhooks</em>, a session that matches it for the first time sends an event to every enabled webhook of its site (paid sites).</p>
<div id="view-lists">
${sites.map((s) => {
  const list = views().list(s.site_id);
  return html`<section aria-labelledby="views-${s.site_id}">
<h2 id="views-${s.site_id}">${s.name} <span class="muted mono small">${s.site_id}</span></h2>
${list.length ? scrollTable(`Saved views of ${s.name}`, ['Name', 'Filter', 'Triggers webhooks', 'Created', 'Actions'], list.map(viewRow)) : html`<p class="empty">No saved views yet: create one below, or with <code>vtr views create --site ${s.site_id} --name … --filter …</code>.</p>`}
</section>`;
})}
</div>
<h2 id="new-view">New saved view</h2>
${viewForm({ action: `${CONSOLE}/views`, submit: 'Create view', values, sites, problem: form?.problem, siteMissing: Boolean(missing) })}`;
    return r.render({ title: 'Saved views', nav: 'views', body, script: html`vtrPage.views();` });
  };

  const editPage = (v: SavedView, form?: { values: ViewValues; problem: { field: string; html: Html } }) => {
    const site = deps.sites.list().find((s) => s.site_id === v.site_id);
    // #view-edit follows a change made elsewhere (console-pages.ts), its notices naming the view anew.
    const body = html`<p><a href="${CONSOLE}/views">← Saved views</a></p>
<div id="view-edit" data-followed="${followedSaid(`The saved view ${viewName(v)}`)}">
<h1>Saved view ${v.name}</h1>
<p class="muted"><span class="mono">${v.saved_view_id}</span> · site ${site?.name ?? v.site_id} · created ${time(v.created_at)}</p>
${goneNotice('view-gone', `The saved view ${viewName(v)} was deleted elsewhere: saving or deleting it here is no longer possible.`, html`What is typed below stays, to make it again on <a href="${CONSOLE}/views?site=${encodeURIComponent(v.site_id)}#new-view">Saved views</a>.`)}
${changedNotice('view-changed', `The saved view ${viewName(v)}`, 'Save view', viewHref(v.saved_view_id))}
${viewForm({ action: viewHref(v.saved_view_id), submit: 'Save view', values: form?.values ?? v, problem: form?.problem, version: versionField(v) })}
<p class="muted">A changed filter applies from the next change of each session (no backfill).</p>
<form method="post" action="${viewHref(v.saved_view_id)}/delete" data-confirm="Delete the saved view ${v.name}?">
<button type="submit" class="danger">Delete view</button></form></div>`;
    return r.render({ title: `Saved view ${v.name}`, nav: 'views', body, script: html`vtrPage.view(${scriptJson({ id: v.saved_view_id, site: v.site_id })});` });
  };

  // The filter error, when there is one, comes back with its caret (same block as the sessions page).
  const problemOf = (err: unknown, values: ViewValues) => {
    const p = formProblem(err);
    if (err instanceof VtrError && err.code === 'invalid_filter') {
      p.html = html`<div id="form-error">${filterError(values.filter, { message: err.message, position: Number(err.details?.position ?? 0) })}</div>`;
    }
    return p;
  };

  r.page('/views', (c) => listPage(c));
  r.form('/views', (c, form) => {
    const values = readValues(form);
    try {
      const input = validate(ViewCreate, { name: values.name, filter: values.filter, trigger_webhooks: values.trigger_webhooks });
      const v = views().create(requiredSite(values.site_id, { field: 'site_id', fix: 'pick the site the view is for' }), input);
      return `${CONSOLE}/views?done=created#view-${v.saved_view_id}`;
    } catch (err) {
      return c.html(listPage(c, { values, problem: problemOf(err, values) }).text, 400);
    }
  });

  r.page('/views/:id', (c) => editPage(views().get(c.req.param('id') ?? '')));
  r.form('/views/:id', (c, form) => {
    const v = views().get(c.req.param('id') ?? '');
    const values = readValues(form);
    if (isStale(form, v)) return c.html(editPage(v, { values, problem: staleProblem('saved view', viewHref(v.saved_view_id), 'Save view') }).text, 409);
    try {
      views().update(v.saved_view_id, validate(ViewUpdate, { name: values.name, filter: values.filter, trigger_webhooks: values.trigger_webhooks }));
      return `${CONSOLE}/views?done=updated#view-${v.saved_view_id}`;
    } catch (err) {
      return c.html(editPage(v, { values, problem: problemOf(err, values) }).text, 400);
    }
  });
  r.form('/views/:id/delete', (c) => {
    views().delete(c.req.param('id') ?? '');
    return `${CONSOLE}/views?done=deleted`;
  });
}

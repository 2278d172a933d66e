// Webhooks, per site: list (status, consecutive failures, secret), create, enable/disable, delete.
// The list follows the webhooks and sites as they change (a failure run growing, one made by the CLI).
import type { Context } from 'hono';
import { urlShown, type Webhook } from '../../domain/webhooks.js';
import { VtrError } from '../../domain/errors.js';
import { WebhookCreate } from '../../api/management/webhooks.js';
import { validate } from '../validate.js';
import type { WebhookService } from '../../webhooks/service.js';
import type { AppDeps } from '../deps.js';
import { html, messageHtml, raw, type Html } from './html.js';
import { CONSOLE, flash, scrollTable } from './layout.js';
import { requiredSite, secret, siteMissing, siteOptions, time } from './fields.js';
import { hookStatus, pick, webhookHref } from './webhook-fields.js';
import type { ConsoleRouter } from './router.js';

/** What enable/disable did, on the list and on the webhook's page. */
export const STATUS_DONE: Record<string, string> = {
  enabled: 'Enabled the webhook (a new failure run starts).',
  disabled: 'Disabled the webhook: its pending retries were stopped.',
  // A page left open after the status changed elsewhere: nothing to enable (no run reset), or to disable.
  'already-enabled': 'The webhook was already enabled: nothing changed.',
  'already-disabled': 'The webhook was already disabled: nothing changed.',
};
const DONE: Record<string, string> = { ...STATUS_DONE, deleted: 'Deleted the webhook with its events.' };

export function webhookService(deps: AppDeps): WebhookService {
  if (!deps.webhooks) throw new VtrError('not_found', 'webhooks are not available in this emulator');
  return deps.webhooks;
}

/** How a row's controls name their webhook: its URL, and its id, as one URL may be registered twice. */
export const hookName = (w: Webhook): string => `${urlShown(w.url)} (${w.webhook_id})`;

/** Enable or disable, and delete. `back` says which page the buttons return to. */
export function webhookActions(w: Webhook, back: 'list' | 'detail'): Html {
  const base = webhookHref(w.webhook_id);
  const toggle = w.status === 'enabled'
    ? html`<form method="post" action="${base}/disable" class="inline" data-confirm="Disable this webhook? Its pending retries stop (those events become failed) and it gets no new events.">
<input type="hidden" name="back" value="${back}"><button type="submit" class="secondary small" aria-label="Disable webhook ${hookName(w)}">Disable</button></form>`
    : html`<form method="post" action="${base}/enable" class="inline">
<input type="hidden" name="back" value="${back}"><button type="submit" class="small" aria-label="Enable webhook ${hookName(w)}">Enable</button></form>`;
  return html`<div class="actions">${toggle}
<form method="post" action="${base}/delete" class="inline" data-confirm="Delete this webhook with all its events and attempts?">
<button type="submit" class="danger small" aria-label="Delete webhook ${hookName(w)}">Delete</button></form></div>`;
}

function webhookRow(w: Webhook): Html {
  return html`<tr id="hook-${w.webhook_id}" data-announce="New webhook ${hookName(w)}" data-gone="Webhook ${hookName(w)} deleted">
<td class="wrap"><a href="${webhookHref(w.webhook_id)}" class="mono" aria-label="${hookName(w)}">${urlShown(w.url)}</a><br><span class="mono muted small">${w.webhook_id}</span></td>
<td>${hookStatus(w.status)}</td><td>${w.consecutive_failures}</td>
<td>${secret(w.secret, `secret of webhook ${hookName(w)}`)}</td><td>${time(w.created_at)}</td>
<td><a href="${webhookHref(w.webhook_id)}" aria-label="Events of webhook ${hookName(w)}">Events</a>${webhookActions(w, 'list')}</td>
</tr>`;
}

export function registerWebhooksPage(r: ConsoleRouter): void {
  const { deps } = r;

  const listPage = (c: Context, form?: { site_id: string; url: string; error: string; field: 'site_id' | 'url' }) => {
    const sites = deps.sites.list();
    // The refused field gets focus, as on the views form: a bad URL, or a free or unknown site.
    const bad = (f: string) => (form?.field === f ? raw(' aria-invalid="true" aria-describedby="form-error" autofocus') : '');
    const created = c.req.query('created');
    const fresh = created ? webhookService(deps).list().find((w) => w.webhook_id === created) : undefined;
    const site = form?.site_id ?? (c.req.query('site') || sites.find((s) => s.plan === 'paid')?.site_id);
    const missing = form ? '' : siteMissing(c.req.query('site'), sites, 'pick the site of the new webhook below.');
    const body = html`<h1>Webhooks</h1>
${missing}
${fresh ? html`<div class="flash" role="status"><p>Created webhook <span class="mono">${fresh.webhook_id}</span>. Verify deliveries with its signing secret:</p>
<div>${secret(fresh.secret, 'secret of the new webhook')}</div></div>` : flash(pick(DONE, c.req.query('done')))}
<p class="muted">Each enabled webhook of a paid site gets an event when a session first matches a saved view that triggers webhooks. Failed deliveries are retried automatically; then you can retry by hand from the event's page.</p>
<div id="webhook-lists">
${sites.map((s) => {
  const hooks = webhookService(deps).list(s.site_id);
  return html`<section aria-labelledby="hooks-${s.site_id}">
<h2 id="hooks-${s.site_id}">${s.name} <span class="muted mono small">${s.site_id} · ${s.plan}</span></h2>
${s.plan === 'paid' ? '' : html`<p class="muted">Free plan: webhooks need the paid plan (<code>vtr sites update ${s.site_id} --plan paid</code>); existing ones hold their deliveries.</p>`}
${hooks.length ? scrollTable(`Webhooks of ${s.name}`, ['URL', 'Status', 'Consecutive failures', 'Secret', 'Created', 'Actions'], hooks.map(webhookRow)) : html`<p class="empty">No webhooks yet: create one below, or with <code>vtr webhooks create --site ${s.site_id} --url …</code>.</p>`}
</section>`;
})}
</div>
<h2 id="new-webhook">New webhook</h2>
<form method="post" action="${CONSOLE}/webhooks" class="stack card" aria-label="Create webhook">
${form ? html`<div class="error" role="alert" id="form-error"><p>${messageHtml(form.error)}</p></div>` : ''}
<div><label for="hook-site">Site</label>
<select id="hook-site" name="site_id" required${missing ? raw(' aria-invalid="true" aria-describedby="site-missing"') : bad('site_id')}>${siteOptions(sites, site)}</select></div>
<div><label for="hook-url">URL</label>
<input type="url" id="hook-url" name="url" value="${form?.url ?? ''}" required placeholder="http://127.0.0.1:9000/" spellcheck="false" autocomplete="off"${bad('url')}></div>
<p class="muted small">A local endpoint that prints deliveries: <code>vtr webhooks receive --port 9000</code>.</p>
<div><button type="submit">Create webhook</button></div>
</form>`;
    const script = html`vtrPage.webhooks();`;
    return r.render({ title: 'Webhooks', nav: 'webhooks', body, script });
  };

  r.page('/webhooks', (c) => listPage(c));
  // The form posts to the page's own path: a refused URL or a free site re-renders it with the error.
  r.form('/webhooks', (c, form) => {
    const site_id = form.site_id ?? '';
    const url = form.url ?? '';
    try {
      const site = requiredSite(site_id, { field: 'site_id', fix: 'pick the site the webhook is for' });
      const w = webhookService(deps).create(site, validate(WebhookCreate, { url }).url);
      return `${CONSOLE}/webhooks?created=${encodeURIComponent(w.webhook_id)}#hook-${encodeURIComponent(w.webhook_id)}`;
    } catch (err) {
      if (!(err instanceof VtrError) || !['invalid_request', 'plan_required', 'not_found'].includes(err.code)) throw err;
      const field = err.code === 'invalid_request' && err.details?.field !== 'site_id' ? 'url' : 'site_id';
      return c.html(listPage(c, { site_id, url, error: err.message, field }).text, err.status as 400);
    }
  });

  const back = (form: Record<string, string>, id: string, done: string) =>
    form.back === 'detail' ? `${webhookHref(id)}?done=${done}` : `${CONSOLE}/webhooks?done=${done}#hook-${encodeURIComponent(id)}`;
  const setStatus = (id: string, form: Record<string, string>, to: 'enabled' | 'disabled') => {
    const service = webhookService(deps);
    const was = service.get(id).status;
    const w = to === 'enabled' ? service.enable(id) : service.disable(id);
    return back(form, w.webhook_id, was === to ? `already-${to}` : to);
  };
  r.form('/webhooks/:id/enable', (c, form) => setStatus(c.req.param('id') ?? '', form, 'enabled'));
  r.form('/webhooks/:id/disable', (c, form) => setStatus(c.req.param('id') ?? '', form, 'disabled'));
  r.form('/webhooks/:id/delete', (c) => {
    webhookService(deps).delete(c.req.param('id') ?? '');
    return `${CONSOLE}/webhooks?done=deleted`;
  });
}

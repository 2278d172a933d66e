// Sites and their keys: copy buttons, and a rotate button (POST, same-origin only). A site made,
// changed or given new keys elsewhere shows at once (console-pages.ts).
import type { Site } from '../../domain/site.js';
import { html, raw, type Html } from './html.js';
import { CONSOLE, flash } from './layout.js';
import { copyButton, secret, siteMissing, time, value } from './fields.js';
import type { ConsoleRouter } from './router.js';

function siteCard(s: Site, open: boolean): Html {
  const id = encodeURIComponent(s.site_id);
  // The card's controls name their site with its id too: two sites may share a name.
  const name = `${s.name} (${s.site_id})`;
  return html`<section class="card" aria-labelledby="site-${s.site_id}" id="site-card-${s.site_id}" data-announce="New site ${name}" data-gone="Site ${name} deleted">
<h2 id="site-${s.site_id}">${s.name}${s.is_default ? html` <span class="badge">default</span>` : ''}</h2>
<p class="keyrow"><span class="muted">Site id</span> <code>${s.site_id}</code>${copyButton(s.site_id, `site id of ${name}`)}</p>
<h3 class="sr-only">Keys</h3>
<p class="keyrow"><span class="muted">Site key</span> <code>${s.site_key}</code>${copyButton(s.site_key, `site key of ${name}`)}</p>
<p class="keyrow"><span class="muted">Secret key</span> ${secret(s.secret_key, `secret key of ${name}`)}</p>
<form method="post" action="${CONSOLE}/sites/${id}/rotate" data-confirm="Rotate the keys of ${s.name}? The old site key and secret key stop working at once.">
<button type="submit" class="danger" aria-label="Rotate the keys of ${name}">Rotate keys</button>
</form>
<details${open ? raw(' open') : ''}><summary aria-label="Settings of ${name}">Settings</summary>
<dl class="fields">
<dt>plan</dt><dd>${s.plan}</dd><dt>country</dt><dd>${value(s.country)}</dd><dt>owner_email</dt><dd>${value(s.owner_email)}</dd>
<dt>conversion_events</dt><dd>${value(s.conversion_events)}</dd><dt>bounce_seconds</dt><dd>${s.bounce_seconds}</dd>
<dt>excluded_countries</dt><dd>${value(s.excluded_countries)}</dd><dt>ip_allowlist</dt><dd>${value(s.ip_allowlist)}</dd>
<dt>created_at</dt><dd>${time(s.created_at)}</dd>
</dl>
<p class="muted">Change these with <code>vtr sites update ${s.site_id} …</code>.</p>
</details>
<p><a href="${CONSOLE}/sessions?site=${id}" aria-label="Sessions of ${name}">Sessions</a> · <a href="${CONSOLE}/checks?site=${id}" aria-label="Checks of ${name}">Checks</a> · <a href="${CONSOLE}/rules?site=${id}" aria-label="Rules of ${name}">Rules</a> · <a href="${CONSOLE}/tokens#tokens-${s.site_id}" aria-label="Access tokens of ${name}">Access tokens</a></p>
</section>`;
}

export function registerSitesPage(r: ConsoleRouter): void {
  const { deps } = r;
  r.page('/sites', (c) => {
    // The site the rotate form redirected for: a link naming no site (hand-edited) claims nothing.
    const rotated = deps.sites.find(c.req.query('rotated') ?? '');
    // ?settings=<site id> opens that site's settings (the rules page links there for the allowlist).
    const settings = c.req.query('settings');
    const sites = deps.sites.list();
    const body = html`<h1>Sites &amp; keys</h1>
${siteMissing(settings, sites, 'the sites there are, with their settings, are below.')}
${flash(rotated ? `Rotated the keys of ${rotated.name} (${rotated.site_id}). Update the agent's data-site-key and your server's secret key.` : null)}
<p class="muted">The site key goes in the agent's <code>data-site-key</code>; the secret key stays on your server (<code>POST /api/v1/event</code>). New sites: <code>vtr sites create</code>.</p>
<div class="grid2" id="site-cards">${sites.map((s) => siteCard(s, s.site_id === settings))}</div>`;
    return r.render({ title: 'Sites & keys', nav: 'sites', body, script: html`vtrPage.sites();` });
  });

  r.form('/sites/:id/rotate', (c) => {
    const site = deps.sites.rotateKeys(c.req.param('id') ?? '');
    return `${CONSOLE}/sites?rotated=${encodeURIComponent(site.site_id)}#site-card-${encodeURIComponent(site.site_id)}`;
  });
}

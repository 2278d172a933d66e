// Access tokens of every site: create (per site) and revoke (POSTs, same-origin only). The lists
// follow tokens and sites changed elsewhere (console-pages.ts).
import type { AccessToken } from '../../domain/site.js';
import { html, type Html } from './html.js';
import { CONSOLE, flash, scrollTable } from './layout.js';
import { requiredSite, secret, shortSecret, time } from './fields.js';
import type { ConsoleRouter } from './router.js';

function tokenRow(t: AccessToken, siteName: string): Html {
  // Said when the row appears, and when its "revoked" mark does (a token made or revoked elsewhere).
  const named = `${shortSecret(t.token)} of ${siteName}`;
  return html`<tr id="token-${t.token}" data-announce="New access token ${named}">
<td>${secret(t.token, `access token ${shortSecret(t.token)}`)}</td><td>${siteName} <span class="muted mono">${t.site_id}</span></td>
<td>${time(t.created_at)}</td><td>${t.revoked_at ? time(t.revoked_at) : html`<span class="muted">active</span>`}</td>
<td>${t.revoked_at
    ? html`<span class="muted" id="revoked-${t.token}" data-announce="Access token ${named} revoked">revoked</span>`
    : html`<form method="post" action="${CONSOLE}/tokens/revoke" class="inline" data-confirm="Revoke this token? Requests with it answer 401 from then on.">
<input type="hidden" name="token" value="${t.token}"><button type="submit" class="danger small" aria-label="Revoke access token ${shortSecret(t.token)}">Revoke</button></form>`}</td>
</tr>`;
}

export function registerTokensPage(r: ConsoleRouter): void {
  const { deps } = r;
  r.page('/tokens', (c) => {
    const sites = deps.sites.list();
    const done = c.req.query('done');
    const body = html`<h1>Access tokens</h1>
${flash(done === 'created' ? 'Created a new access token (at the top of its site).' : done === 'revoked' ? 'Revoked the token.' : null)}
<p class="muted">A token reads its own site's sessions and adds custom events: <code>Authorization: Bearer &lt;token&gt;</code>.</p>
<form method="post" action="${CONSOLE}/tokens" class="filter">
<div><label for="token-site">Site</label>
<select id="token-site" name="site_id" required>${sites.map((s) => html`<option value="${s.site_id}">${s.name} (${s.site_id})</option>`)}</select></div>
<div><button type="submit">Create token</button></div>
</form>
<div id="token-lists">
${sites.map((s) => {
  const tokens = deps.sites.tokens.list(s.site_id).reverse();
  return html`<section aria-labelledby="tokens-${s.site_id}">
<h2 id="tokens-${s.site_id}">${s.name}</h2>
${tokens.length ? scrollTable(`Access tokens of ${s.name}`, ['Token', 'Site', 'Created', 'Revoked', 'Actions'], tokens.map((t) => tokenRow(t, s.name))) : html`<p class="empty">No access tokens yet: create one above, or with <code>vtr tokens create --site ${s.site_id}</code>.</p>`}
</section>`;
})}
</div>`;
    return r.render({ title: 'Access tokens', nav: 'tokens', body, script: html`vtrPage.tokens();` });
  });

  r.form('/tokens', (_c, form) => {
    const site = requiredSite(form.site_id, { field: 'site_id', fix: 'pick the site the token is for' });
    deps.sites.tokens.create(site);
    return `${CONSOLE}/tokens?done=created#tokens-${encodeURIComponent(site)}`;
  });
  // The token travels in the form body, never in a URL.
  r.form('/tokens/revoke', (_c, form) => {
    deps.sites.tokens.revoke(form.token ?? '');
    return `${CONSOLE}/tokens?done=revoked`;
  });
}

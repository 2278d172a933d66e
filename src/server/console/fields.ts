// Small renderers shared by the console pages: values, times, risk badges, pagers, site pickers,
// the filter field.
import type { Site } from '../../domain/site.js';
import { VtrError } from '../../domain/errors.js';
import { utcText } from '../../domain/time.js';
import { html, raw, type Html } from './html.js';

/** "Nothing here": a dash, with the raw value (null, [], "") as its tooltip. */
export function empty(raw: string): Html {
  return html`<span class="null" title="${raw}">—</span>`;
}

/** A value as the API has it: null, [] and "" shown as a dash (raw value in the tooltip), arrays joined, booleans as words. */
export function value(v: unknown): Html {
  if (v === null || v === undefined) return empty('null');
  if (v === '') return empty('""');
  if (Array.isArray(v)) return v.length ? html`${v.map(String).join(', ')}` : empty('[]');
  if (typeof v === 'object') return html`<code>${JSON.stringify(v)}</code>`;
  return html`${String(v)}`;
}

/**
 * "2026-11-21T09:14:03.123456" → a <time> showing "2026-11-21 09:14:03 UTC". Every console time is
 * the emulator's: under a frozen or manual clock the page's body class shows the "(emulated)" mark.
 */
export function time(ts: string | null | undefined): Html {
  if (!ts) return empty('null');
  return html`<time datetime="${ts}Z" title="${ts} UTC (the emulator's clock)">${utcText(ts)}<span class="emu"> (emulated)</span></time>`;
}

export function risk(level: string | null | undefined): Html {
  if (!level) return empty('null');
  return html`<span class="badge risk-${level.replace(/[^a-z]/g, '')}">${level}</span>`;
}

export function statusBadge(status: number): Html {
  return html`<span class="badge status-${String(status)[0]}">${status}</span>`;
}

/** A page of rows listed with one row more than it shows: whether an older page has any. */
export function pageOf<T>(listed: T[], size: number): { rows: T[]; more: boolean } {
  return { rows: listed.slice(0, size), more: listed.length > size };
}

/** Paging by cursor: "Newer" back to the first page, "Older" after the last row shown when there are more. */
export function pager(base: string, params: Record<string, string | undefined>, opts: { before?: string; lastId?: string; more: boolean }): Html {
  const link = (extra: Record<string, string | undefined>) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries({ ...params, ...extra })) if (v) q.set(k, v);
    const s = q.toString();
    return s ? `${base}?${s}` : base;
  };
  if (!opts.before && !opts.more) return html``;
  return html`<nav class="pager" aria-label="Pages">
${opts.before ? html`<a href="${link({ before: undefined })}">← Newest</a>` : ''}
${opts.more && opts.lastId ? html`<a href="${link({ before: opts.lastId })}" rel="next">Older →</a>` : ''}
</nav>`;
}

/**
 * A `?before=` cursor that names nothing (pruned, deleted, mistyped): the page shows the newest
 * rows, as the first page would, and says why rather than quietly ignoring the link's cursor.
 */
export function goneCursor(before: string | undefined, from: string | undefined): Html | string {
  if (!before || from) return '';
  return html`<div class="flash" role="status" id="cursor-gone"><p>There is no ${before.slice(0, 100)} to page from (pruned, deleted, or mistyped): these are the newest.</p></div>`;
}

/** A <select name="site"> with "All sites" first. */
export function sitePicker(sites: Site[], selected: string | undefined, id = 'site'): Html {
  // A link naming a deleted site lists nothing: the picker says so instead of showing "All sites".
  const unknown = selected && !sites.some((s) => s.site_id === selected);
  return html`<div><label for="${id}">Site</label>
<select id="${id}" name="site"${unknown ? raw(' aria-invalid="true"') : ''}>
<option value="">All sites</option>
${sites.map((s) => html`<option value="${s.site_id}"${s.site_id === selected ? html` selected` : ''}>${s.name} (${s.site_id})</option>`)}
${unknown ? html`<option value="${selected}" selected>${selected} (no such site)</option>` : ''}
</select></div>`;
}

/**
 * A `?site=` or `?settings=` naming no site (deleted, or a link from another emulator): said above
 * the page (`instead`: what the page shows or asks for), rather than quietly showing or picking another site.
 */
export function siteMissing(asked: string | undefined, sites: Site[], instead: string): Html | string {
  if (!asked || sites.some((s) => s.site_id === asked)) return '';
  return html`<div class="error" role="alert" id="site-missing"><p>There is no site ${asked.slice(0, 100)} (deleted, or from another emulator): ${instead}</p></div>`;
}

/**
 * A create form's site choices. A site asked for that is not there leaves the choice on "Pick a
 * site" (described by the page's note): a browser would otherwise select the first site unasked.
 */
export function siteOptions(sites: Site[], selected: string | undefined): Html {
  const unknown = Boolean(selected) && !sites.some((s) => s.site_id === selected);
  return html`${unknown ? html`<option value="" selected>Pick a site</option>` : ''}${sites.map((s) => html`<option value="${s.site_id}"${s.site_id === selected ? raw(' selected') : ''}>${s.name} (${s.site_id}, ${s.plan})</option>`)}`;
}

/**
 * The site a console form is for, or its refusal when the post named none (a scripted or hand-made
 * post): `site: required` and how to pick one, at `field`, not 'site "" not found'.
 */
export function requiredSite(siteId: string | undefined, o: { field: string; fix: string }): string {
  if (!siteId?.trim()) throw new VtrError('invalid_request', `site: required: ${o.fix}`, { field: o.field });
  return siteId;
}

/** A copy-to-clipboard button for a value (the value lives in the attribute, escaped). */
export function copyButton(text: string, label: string): Html {
  return html`<button type="button" class="secondary small" data-copy="${text}" aria-label="Copy ${label}">Copy</button>`;
}

export const shortSecret = (text: string): string => (text.length > 16 ? `${text.slice(0, 12)}…${text.slice(-4)}` : text);

/** Secrets are shown shortened; the copy button and "Reveal" give the whole value. Both are named after
 * `label`, so that a list of them (one per row) tells a screen reader which secret each is. */
export function secret(text: string, label: string): Html {
  return html`<span class="keyrow"><code>${shortSecret(text)}</code>${copyButton(text, label)}
<details class="inline"><summary aria-label="Reveal ${label}">Reveal</summary><code>${text}</code></details></span>`;
}

/**
 * A filter's form field. A text field drops the line breaks of its value in a browser, so a filter
 * the API took with one (`city = "New\nYork"`) would be saved changed: such a filter is shown in a
 * text area, which keeps it (HTML skips a line break right after the start tag, hence one of our own
 * before the value). Read it back with `filterSent`.
 */
export function filterField(id: string, value: string, placeholder: string, attrs: Html): Html {
  const typing = raw('required spellcheck="false" autocomplete="off"');
  return /[\r\n]/.test(value) ? html`<textarea id="${id}" name="filter" ${typing} rows="3"${attrs}>\n${value}</textarea>`
    : html`<input type="text" id="${id}" name="filter" value="${value}" ${typing} placeholder="${placeholder}"${attrs}>`;
}

/** A filter as its form sent it: a text area's line breaks arrive as CRLF, back to the LF it was shown with. */
export const filterSent = (sent: string | undefined): string => (sent ?? '').replace(/\r\n?/g, '\n');

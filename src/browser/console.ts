// Browser code shared by every console page, inlined into each page before the page's own script.
// Pages call:
//   vtrLive(types, fn)          fn(type, data) for each event of the SSE stream (console-live.ts)
//   vtrRow(url, rowId, bodyId)  fetch a server-rendered <tr> and replace or prepend it (204: remove)
//   vtrRefresh(id, ok?)         re-fetch this page and swap the element with that id (unless ok(old, fresh) says no)
//   vtrSiteChoices(id)          re-fetch this page and take the options of that <select>, keeping the pick
//   vtrPage.<page>(data)        a page's own live updates (console-pages.ts)
// Markup hooks: <button data-copy="text">, <form data-confirm="question">; a refreshed element's
// [data-announce] (said when it appears) and [data-gone] (said when it leaves).
import { pages } from './console-pages.js';
import { live } from './console-live.js';

const byId = (id: string) => document.getElementById(id);

function announce(msg: string): void {
  const a = byId('announce')!;
  a.textContent = '';
  setTimeout(() => { a.textContent = msg; }, 50);
}
window.vtrAnnounce = announce;

function copyFallback(text: string): boolean {
  const t = document.createElement('textarea');
  t.value = text; t.setAttribute('readonly', ''); t.style.position = 'fixed'; t.style.opacity = '0';
  document.body.appendChild(t); t.select();
  let ok = false;
  try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
  t.remove();
  return ok;
}
document.addEventListener('click', (e) => {
  const target = e.target as Element | null;
  const b = target && target.closest ? target.closest<HTMLButtonElement>('button[data-copy]') : null;
  if (!b) return;
  const text = b.getAttribute('data-copy') ?? '';
  const label = b.textContent;
  const done = (ok: boolean) => {
    b.textContent = ok ? 'Copied' : 'Copy failed';
    announce(ok ? 'Copied to the clipboard' : 'Could not copy');
    setTimeout(() => { b.textContent = label; }, 1500);
  };
  // The clipboard API needs a secure context (https or localhost); else the old way.
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(() => done(true), () => done(copyFallback(text)));
  } else done(copyFallback(text));
});
document.addEventListener('submit', (e) => {
  const q = (e.target as HTMLFormElement).getAttribute('data-confirm');
  if (q && !window.confirm(q)) e.preventDefault();
});

// A refused filter's line scrolls sideways inside its box (the caret stays under its column): at
// phone width, bring the caret into view instead of leaving it off to the right.
document.querySelectorAll<HTMLPreElement>('.error pre').forEach((pre) => {
  const lines = (pre.textContent ?? '').split('\n');
  const caret = lines[lines.length - 1].indexOf('^');
  const longest = Math.max(...lines.map((l) => l.length));
  if (caret < 0 || pre.scrollWidth <= pre.clientWidth) return;
  pre.scrollLeft = Math.max(0, (caret / longest) * pre.scrollWidth - pre.clientWidth / 2);
});

window.vtrLive = live;

let inflight = 0;
const latest: Record<string, number> = {};
const mayAdd: Record<string, boolean> = {};
window.vtrRow = (url, rowId, bodyId, opts) => {
  const body = byId(bodyId) as HTMLTableSectionElement | null;
  if (!body) return;
  // A burst waits its turn rather than being dropped (the last update of a row must land).
  if (inflight > 8) { setTimeout(() => { window.vtrRow(url, rowId, bodyId, opts); }, 250); return; }
  inflight++;
  // Answers can arrive out of order: only the newest request for a row may touch it, and it
  // inherits the right to add the row from any request it superseded (e.g. "created").
  if (!(opts && opts.onlyReplace)) mayAdd[rowId] = true;
  const mine = latest[rowId] = (latest[rowId] || 0) + 1;
  fetch(url, { headers: { accept: 'text/html' } }).then((r) => {
    if (latest[rowId] !== mine) return;
    let old = byId(rowId);
    if (r.status === 204) { delete mayAdd[rowId]; if (old) old.remove(); return; }
    if (!r.ok) return;
    return r.text().then((markup) => {
      if (latest[rowId] !== mine) return;
      const add = mayAdd[rowId];
      delete mayAdd[rowId];
      const t = document.createElement('tbody');
      t.innerHTML = markup;
      const row = t.firstElementChild;
      if (!row) return;
      old = byId(rowId);
      if (old) { old.replaceWith(row); return; }
      if (!add) return;
      body.prepend(row);
      row.classList.add('new');
      const empty = byId(bodyId + '-empty');
      if (empty) empty.remove();
      announce(row.getAttribute('data-announce') || 'New row');
      while (body.rows.length > ((opts && opts.max) || 200)) body.deleteRow(-1);
    });
  }).catch(() => {}).finally(() => { inflight--; });
};

/**
 * A selector finding a control again in a fresh copy of the page: its id, else its accessible name
 * (repeated controls are named for their row or card: "Copy site id of Shop (site_…)").
 */
function selectorOf(el: Element | null): string {
  if (!el) return '';
  if (el.id) return '#' + CSS.escape(el.id);
  const label = el.getAttribute('aria-label');
  return label ? `${el.tagName.toLowerCase()}[aria-label="${CSS.escape(label)}"]` : '';
}

const pending: Record<string, ReturnType<typeof setTimeout> | null> = {};
/** Re-fetch this page, once for a burst of calls with the same key, and hand `apply` the fresh copy. */
function refetch(key: string, apply: (doc: Document) => void): void {
  if (pending[key]) return;
  pending[key] = setTimeout(() => {
    fetch(location.href, { headers: { accept: 'text/html' } }).then((r) => (r.ok ? r.text() : null)).then((text) => {
      pending[key] = null;
      if (text) apply(new DOMParser().parseFromString(text, 'text/html'));
    }).catch(() => { pending[key] = null; });
  }, 200);
}

window.vtrRefresh = (id, ok) => {
  refetch(id, (doc) => {
    const fresh = doc.getElementById(id);
    const old = byId(id);
    // `ok` decides at the last moment, on both copies (an edit form may have been typed in meanwhile).
    if (!fresh || !old || (ok && !ok(old, fresh))) return;
    // The tab's title follows what it names (a site renamed elsewhere).
    if (doc.title) document.title = doc.title;
    // What the swap adds or takes away (a card, a row: made or deleted elsewhere) is said, as
    // vtrRow says a new row.
    const had = Array.from(old.querySelectorAll('[data-announce]'));
    const has = Array.from(fresh.querySelectorAll('[data-announce]')).map((e) => e.id);
    const added = Array.from(fresh.querySelectorAll('[data-announce]')).filter((e) => !had.some((h) => h.id === e.id)).map((e) => e.getAttribute('data-announce'));
    const gone = had.filter((e) => has.indexOf(e.id) < 0 && e.hasAttribute('data-gone')).map((e) => e.getAttribute('data-gone'));
    // Keep keyboard focus on the same control across the swap, and each disclosure open or closed
    // as the reader left it.
    const active = document.activeElement as HTMLElement | null;
    const focused = active && old.contains(active) ? selectorOf(active) : '';
    const disclosures = Array.from(old.querySelectorAll('details')).map((d) => [selectorOf(d.querySelector('summary')), d.open] as const);
    old.replaceWith(fresh);
    disclosures.forEach(([sel, open]) => {
      const summary = sel ? fresh.querySelector(sel) : null;
      if (summary && summary.parentElement instanceof HTMLDetailsElement) summary.parentElement.open = open;
    });
    const again = focused ? (document.querySelector(focused) as HTMLButtonElement | null) : null;
    if (again && !again.disabled) again.focus();
    const said = added.concat(gone);
    if (said.length) announce(said.join('. '));
  });
};

// A create form's site choices follow the sites made, renamed or deleted elsewhere. The <select>
// itself stays (focus, what the form around it holds); only its options are the fresh page's. A
// picked site that is gone leaves "Pick a site", as a link naming no site does, never another one.
window.vtrSiteChoices = (id) => {
  refetch('choices:' + id, (doc) => {
    const old = byId(id);
    const fresh = doc.getElementById(id);
    if (!(old instanceof HTMLSelectElement) || !(fresh instanceof HTMLSelectElement)) return;
    const picked = old.value;
    const was = old.selectedOptions[0]?.text ?? '';
    const offered = Array.from(fresh.options).filter((o) => o.value !== '');
    old.replaceChildren(...offered.map((o) => new Option(o.text, o.value)));
    if (offered.some((o) => o.value === picked)) { old.value = picked; return; }
    old.prepend(new Option('Pick a site', '', true, true));
    old.value = '';
    if (picked) announce(`The site ${was} is no longer there: pick another`);
  });
};

window.vtrPage = pages;

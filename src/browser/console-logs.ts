// The request log page's live rows: built from the `request.logged` event with DOM calls, the
// same row the server renders (textContent only: nothing is parsed as HTML), so a busy server
// costs no extra requests.
import { utcText } from '../domain/time.js';
import { logBodiesLabel, type RequestLogJson as LogEntry } from '../domain/request-log.js';

function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string | null, cls?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text != null) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

function pretty(t: string | null): string | null {
  if (t == null) return null;
  try { return JSON.stringify(JSON.parse(t), null, 2); } catch (e) { return t; }
}

/**
 * A state reset clears the log with the rest: the open list is fetched again (empty, or the
 * requests since). An import leaves the log alone, so the rows stay; both are said, as the other
 * lists say a replaced state.
 */
function stateReplaced(d: { reason?: string } | null): void {
  if (d?.reason !== 'reset') {
    window.vtrAnnounce('The emulator\'s state was imported: the request log is as it was (an import leaves it alone)');
    return;
  }
  window.vtrRefresh('log-list', () => {
    window.vtrAnnounce('The emulator\'s state was reset, the request log with it: the list shows it now');
    return true;
  });
}

export function logsLive(): void {
  window.vtrLive(['request.logged', 'state.replaced'], (type, e: LogEntry) => {
    if (type === 'state.replaced') { stateReplaced(e as unknown as { reason?: string } | null); return; }
    const body = document.getElementById('rows') as HTMLTableSectionElement | null;
    if (!body || document.getElementById('log-' + e.request_id)) return;
    const tr = el('tr'); tr.id = 'log-' + e.request_id; tr.className = 'new';
    // As the server renders a time (console/fields.ts#time): its zone, and the "(emulated)" mark the
    // page's clock class shows under a frozen or manual clock.
    const t = el('time', utcText(e.created_at)); t.setAttribute('datetime', e.created_at + 'Z');
    t.title = e.created_at + " UTC (the emulator's clock)"; t.appendChild(el('span', ' (emulated)', 'emu'));
    let td = el('td'); td.appendChild(t); tr.appendChild(td);
    tr.appendChild(el('td', e.method));
    tr.appendChild(el('td', e.path, 'mono'));
    td = el('td'); td.appendChild(el('span', String(e.status), 'badge status-' + String(e.status)[0])); tr.appendChild(td);
    tr.appendChild(el('td', e.duration_ms.toFixed(2) + ' ms'));
    // No site (a refused key): the dash with the raw value as its tooltip, as fields.ts#value renders it.
    td = el('td', e.site_id, 'mono');
    if (!e.site_id) { const n = el('span', '—', 'null'); n.title = 'null'; td.appendChild(n); }
    tr.appendChild(td);
    td = el('td', null, 'wrap');
    const d = el('details'); const view = el('summary', 'View');
    view.setAttribute('aria-label', logBodiesLabel(e));
    d.appendChild(view);
    const req = pretty(e.request_body), res = pretty(e.response_body);
    d.appendChild(el('p', 'Request', 'muted')); d.appendChild(el('pre', req == null ? '(none)' : req));
    d.appendChild(el('p', 'Response', 'muted')); d.appendChild(el('pre', res == null ? '(not kept)' : res));
    td.appendChild(d); tr.appendChild(td);
    body.prepend(tr);
    const empty = document.getElementById('rows-empty'); if (empty) empty.remove();
    while (body.rows.length > 200) body.deleteRow(-1);
  });
}

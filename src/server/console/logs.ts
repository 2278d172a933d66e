// The public-API request log: newest first, live (rows built in the browser from the event, so a
// busy server costs no extra requests), bodies behind a <details>.
import type { RequestLogJson } from '../../logs/request-logger.js';
import { logBodiesLabel } from '../../domain/request-log.js';
import { html, raw, type Html } from './html.js';
import { CONSOLE, scrollTable } from './layout.js';
import { goneCursor, pageOf, pager, statusBadge, time, value } from './fields.js';
import type { ConsoleRouter } from './router.js';

const PAGE_SIZE = 100;
const HEAD = ['Time', 'Method', 'Path', 'Status', 'Duration', 'Site', 'Bodies'];

function pretty(text: string | null): string {
  if (text == null) return '';
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function logRow(e: RequestLogJson): Html {
  return html`<tr id="log-${e.request_id}">
<td>${time(e.created_at)}</td><td>${e.method}</td><td class="mono">${e.path}</td><td>${statusBadge(e.status)}</td>
<td>${e.duration_ms.toFixed(2)} ms</td><td class="mono">${value(e.site_id)}</td>
<td class="wrap"><details><summary aria-label="${logBodiesLabel(e)}">View</summary>
<p class="muted">Request</p><pre>${e.request_body == null ? '(none)' : pretty(e.request_body)}</pre>
<p class="muted">Response</p><pre>${e.response_body == null ? '(not kept)' : pretty(e.response_body)}</pre>
</details></td>
</tr>`;
}

export function registerLogsPage(r: ConsoleRouter): void {
  const { deps } = r;
  r.page('/logs', async (c) => {
    await deps.requestLog?.settle();
    const before = c.req.query('before') || undefined;
    // An entry pruned since the page was linked: the newest entries, as on the other console pages.
    const from = before && deps.requestLog?.get(before) ? before : undefined;
    const { rows: entries, more } = pageOf(deps.requestLog?.list({ limit: PAGE_SIZE + 1, before: from }) ?? [], PAGE_SIZE);
    const body = html`<h1>Request log</h1>
${goneCursor(before, from)}
<p class="muted">Every <code>/api/v1</code> request, newest first; secrets are masked. Also: <code>vtr logs tail</code>.</p>
<div id="log-list">${scrollTable('Public API requests, newest first', HEAD, entries.map(logRow), { bodyId: 'rows', empty: 'No requests yet.' })}
${pager(`${CONSOLE}/logs`, {}, { before: from, lastId: entries.at(-1)?.request_id, more })}</div>`;
    return r.render({ title: 'Request log', nav: 'logs', body, script: from ? undefined : raw('vtrPage.logs();') });
  });
}

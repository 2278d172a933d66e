// How `vtr state export|import` and `serve --import` name what a state holds, from its table counts.

/**
 * The header of `GET /_vtr/api/state` giving rows per table (a JSON object): a summary of an export
 * of any size without parsing it.
 */
export const STATE_TABLES_HEADER = 'vtr-state-tables';

/** Table → what its rows are called, in the export's order. */
const KINDS: Array<[table: string, noun: string]> = [
  ['sites', 'site'], ['access_tokens', 'access token'], ['rules', 'rule'], ['sessions', 'session'], ['probes', 'probe'],
  ['checks', 'check'], ['saved_views', 'saved view'], ['webhooks', 'webhook'], ['webhook_events', 'webhook event'],
  ['webhook_attempts', 'webhook attempt'], ['notifications', 'notification'],
];
// Counted even at 0: a reader looks for them first. Any other kind is named when there is one.
const ALWAYS = new Set(['sites', 'sessions', 'checks', 'webhooks']);
// Bookkeeping that follows from the rest (which sessions matched a view, where a clock stands).
const BOOKKEEPING = new Set(['view_matches', 'meta']);

/** "1 site(s), 2 rule(s), 5 session(s), …": every kind the counts hold; a table of a later vtr by its name. */
export function stateSummary(counts: Record<string, number>): string {
  const known = new Map(KINDS);
  const others = Object.keys(counts).filter((t) => !known.has(t) && !BOOKKEEPING.has(t)).map((t): [string, string] => [t, t.replace(/s$/, '').replace(/_/g, ' ')]);
  return [...KINDS, ...others]
    .filter(([table]) => ALWAYS.has(table) || (counts[table] ?? 0) > 0)
    .map(([table, noun]) => `${counts[table] ?? 0} ${noun}(s)`)
    .join(', ');
}

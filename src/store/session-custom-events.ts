// A session's custom events, one row each in `session_custom_events` (position from 0): appending
// one writes one row, whatever the length of the list. Sessions are read with their list as JSON
// text (`customEventsSql`), so a session row and its events come back in one query.
import type { Db } from './db.js';

/**
 * The JSON array of a session's custom event names, in order: an SQL expression for a query over
 * `sessions`, given how that query names the session's id (`sessions.session_id`, `"s".session_id`).
 */
export function customEventsSql(sessionIdColumn: string): string {
  // In position order off the primary key: an ORDER BY inside json_group_array sorts in a temp b-tree.
  return `(SELECT json_group_array(name) FROM (SELECT e.name FROM session_custom_events e WHERE e.session_id = ${sessionIdColumn} ORDER BY e.position))`;
}

/**
 * How many of `list`'s events are stored already, given what is stored (null when unknown): all of
 * `stored` when the list only grew from it; otherwise null (what is stored is replaced).
 */
export function keptOf(list: readonly string[], stored: readonly string[] | null): number | null {
  if (!stored || stored.length > list.length) return null;
  for (let i = 0; i < stored.length; i++) if (list[i] !== stored[i]) return null;
  return stored.length;
}

export function createCustomEventRows(db: Db) {
  const insert = db.prepare<[string, number, string]>('INSERT INTO session_custom_events (session_id, position, name) VALUES (?, ?, ?)');
  const clear = db.prepare<[string]>('DELETE FROM session_custom_events WHERE session_id = ?');
  return {
    /**
     * Stores `list` as the session's events, the first `kept` of them (keptOf) being stored already:
     * one row per new event; with `kept` null, whatever was stored is replaced.
     */
    write(sessionId: string, list: readonly string[], kept: number | null): void {
      if (kept === null) clear.run(sessionId);
      for (let i = kept ?? 0; i < list.length; i++) insert.run(sessionId, i, list[i]);
    },
  };
}
export type CustomEventRows = ReturnType<typeof createCustomEventRows>;

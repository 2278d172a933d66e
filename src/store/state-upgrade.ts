// Exports made before a schema change, brought to today's tables before import. Schema 5 moved a
// session's custom events from its row (`sessions.custom_events`, JSON text) to a table of their own.
import { VtrError } from '../domain/errors.js';
import { columnProblem } from './state-rules.js';

type Row = Record<string, unknown>;

/** The document's tables as this vtr stores them (a new object; the document is left alone). */
export function upgradeTables(tables: Record<string, unknown[]>): Record<string, unknown[]> {
  const sessions = tables.sessions;
  if (!sessions?.some((row) => isRow(row) && 'custom_events' in row)) return tables;
  const events: Row[] = [];
  const rows = sessions.map((row, i) => {
    if (!isRow(row) || !('custom_events' in row)) return row;
    const { custom_events: list, ...rest } = row;
    const v = list as string | number | null;
    const problem = columnProblem('sessions', 'custom_events', 'TEXT', v);
    if (problem) throw new VtrError('invalid_request', `tables.sessions[${i}].custom_events: ${problem}`);
    const names = v === null ? [] : (JSON.parse(String(v)) as string[]);
    names.forEach((name, position) => events.push({ session_id: rest.session_id as string, position, name }));
    return rest;
  });
  return { ...tables, sessions: rows, session_custom_events: [...(tables.session_custom_events ?? []), ...events] };
}

const isRow = (v: unknown): v is Row => v !== null && typeof v === 'object' && !Array.isArray(v);

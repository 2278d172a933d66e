// Compiles a parsed filter to a SQLite WHERE clause over the `sessions` table, with the same results
// as matchesFilter (src/domain/filter/evaluate.ts). Column names come only from the SESSION_FIELDS
// whitelist; every value is a `?` parameter.
//
// Every fragment is two-valued (0/1, never NULL) so NOT(...) flips exactly like the in-memory
// evaluator: `x IS ?` instead of `x = ?`, and `x IS NOT NULL AND ...` guards the ordered ops.

import { SESSION_FIELDS, SESSION_FIELD_KINDS, type SessionField } from '../domain/session.js';
import type { FilterNode, FilterValue } from '../domain/filter/index.js';

const FIELDS = new Set<string>(SESSION_FIELDS);
const ORDERED = new Set(['<', '<=', '>', '>=']);
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

export interface FilterSqlOptions {
  /** Qualify columns (e.g. "s" for `FROM sessions s`); must be a plain identifier. */
  tableAlias?: string;
}

export function filterToSql(node: FilterNode, opts: FilterSqlOptions = {}): { where: string; params: unknown[] } {
  if (opts.tableAlias !== undefined && !IDENT.test(opts.tableAlias)) {
    throw new Error(`invalid table alias ${JSON.stringify(opts.tableAlias)}`);
  }
  const prefix = opts.tableAlias ? `"${opts.tableAlias}".` : '';
  const params: unknown[] = [];

  const col = (field: SessionField): string => {
    if (!FIELDS.has(field)) throw new Error(`not a Session field: ${JSON.stringify(field)}`);
    return `${prefix}"${field}"`;
  };
  const param = (v: FilterValue): string => {
    if (typeof v === 'boolean') params.push(v ? 1 : 0); // booleans are stored as 0/1
    else if (typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))) params.push(v);
    else throw new Error(`invalid filter value: ${String(v)}`);
    return '?';
  };

  const compile = (n: FilterNode): string => {
    switch (n.type) {
      case 'and':
        return n.children.length ? `(${n.children.map(compile).join(' AND ')})` : '1';
      case 'or':
        return n.children.length ? `(${n.children.map(compile).join(' OR ')})` : '0';
      case 'not':
        return `NOT (${compile(n.child)})`;
      case 'null':
        return `${col(n.field)} IS ${n.negated ? 'NOT ' : ''}NULL`;
      case 'compare': {
        const c = col(n.field);
        if (n.op === '=') return `${c} IS ${param(n.value)}`;
        if (n.op === '!=') return `${c} IS NOT ${param(n.value)}`;
        if (!ORDERED.has(n.op)) throw new Error(`invalid operator ${JSON.stringify(n.op)}`);
        return `(${c} IS NOT NULL AND ${c} ${n.op} ${param(n.value)})`;
      }
      case 'in': {
        const c = col(n.field);
        const sql = n.values.length
          ? `(${c} IS NOT NULL AND ${c} IN (${n.values.map(param).join(', ')}))`
          : '0';
        return n.negated ? `NOT ${sql}` : sql;
      }
      case 'contains': {
        const c = col(n.field);
        // Alias json_each so its `value` column is never confused with the sessions.value field.
        const sql =
          SESSION_FIELD_KINDS[n.field] === 'array'
            ? `EXISTS (SELECT 1 FROM json_each(${c}) AS je WHERE je.value = ${param(n.value)})`
            : `(COALESCE(instr(${c}, ${param(n.value)}), 0) > 0)`;
        return n.negated ? `NOT ${sql}` : sql;
      }
    }
    throw new Error(`invalid filter node: ${JSON.stringify((n as { type?: unknown }).type)}`);
  };

  return { where: compile(node), params };
}

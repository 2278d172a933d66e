// The parsed form of a filter, shared by the parser, the in-memory matcher and the SQL translation.
import type { SessionField } from '../session.js';

export type CompareOp = '=' | '!=' | '<' | '<=' | '>' | '>=';
export type FilterValue = string | number | boolean;

/** Parsed filter. Values are already coerced to the field's kind. */
export type FilterNode =
  | { type: 'and'; children: FilterNode[] }
  | { type: 'or'; children: FilterNode[] }
  | { type: 'not'; child: FilterNode }
  | { type: 'compare'; field: SessionField; op: CompareOp; value: FilterValue }
  | { type: 'in'; field: SessionField; negated: boolean; values: FilterValue[] }
  | { type: 'contains'; field: SessionField; negated: boolean; value: string }
  | { type: 'null'; field: SessionField; negated: boolean };

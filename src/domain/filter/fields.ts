// What the filter language allows on each Session field: names, operators, vocabularies.
import {
  CHANNELS,
  DEVICE_TYPES,
  ENGAGEMENT_LEVELS,
  RISK_LEVELS,
  SESSION_FIELDS,
  type FieldKind,
  type SessionField,
} from '../session.js';
import { RISK_LABELS } from '../risk.js';
import { RULE_ACTIONS } from '../rules.js';

export const OPERATORS = '=, !=, <, <=, >, >=, in, not in, contains, not contains, is null, is not null';
/** Text fields where `<`/`>` make sense: timestamps, given in the stored form, order as strings. */
export const ORDERED_TEXT = new Set<SessionField>(['created_at', 'updated_at']);
/** Closed vocabularies: a typo here would silently match nothing, so it is refused instead. */
export const ENUMS: Partial<Record<SessionField, readonly string[]>> = {
  risk_level: RISK_LEVELS,
  engagement_level: ENGAGEMENT_LEVELS,
  channel: CHANNELS,
  device_type: DEVICE_TYPES,
  // `actions contains blocked` (the outcome's word, not the action's) would never match.
  risks: RISK_LABELS,
  actions: RULE_ACTIONS,
};
export const ENUM_ITEM: Partial<Record<SessionField, string>> = { risks: 'risk', actions: 'action' };
export const KIND_NAMES: Record<FieldKind, string> = {
  string: 'text',
  number: 'number',
  boolean: 'true/false',
  array: 'list',
};
export const FIELD_BY_LOWER = new Map<string, SessionField>(SESSION_FIELDS.map((f) => [f, f]));

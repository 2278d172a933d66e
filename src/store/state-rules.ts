// What an imported row's values must look like beyond SQLite's own checks (keys, NOT NULL): the
// declared column type, the Session timestamp format, the known enumerations, JSON where the
// emulator keeps JSON, filters (views, rules) that parse, real country codes, webhook URLs and
// secrets a delivery can use. An export edited by hand must not put
// into the database what later reads (or every session change, for a filter) would choke on.
import { CHANNELS, DEVICE_TYPES, ENGAGEMENT_LEVELS, RISK_LEVELS } from '../domain/session.js';
import { PLANS } from '../domain/site.js';
import { EVENT_STATUSES, httpUrlProblem, NOTIFICATION_KINDS, WEBHOOK_STATUSES } from '../domain/webhooks.js';
import { MAX_THRESHOLD, RULE_ACTIONS, RULE_TYPES, SMART_RULES } from '../domain/rules.js';
import { parseFilter } from '../domain/filter/index.js';
import { MAX_CLOCK_MS } from '../domain/clock.js';
import { isCountryCode } from '../domain/country-codes.js';
import { isValidAllowlistEntry } from '../domain/ip-allowlist.js';
import { BLANK_NAME, nameProblem } from '../domain/names.js';

type Value = string | number | null;
/** A problem with the value, or null when it fits. */
type Rule = (v: Value) => string | null;

export const TIMESTAMP_PROBLEM = 'must be a timestamp like 2026-11-21T09:00:00.000000 (UTC)';
export const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/;

const oneOf = (values: readonly string[]): Rule => (v) => (v === null || values.includes(String(v)) ? null : `must be one of ${values.join(', ')}`);

function json(kind: 'array' | 'object' | 'strings'): Rule {
  const what = kind === 'strings' ? 'array of strings' : kind;
  return (v) => {
    if (v === null) return null;
    try {
      const parsed: unknown = JSON.parse(String(v));
      const ok =
        kind === 'object' ? parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
        : Array.isArray(parsed) && (kind === 'array' || parsed.every((x) => typeof x === 'string'));
      return ok ? null : `must be a JSON ${what}`;
    } catch {
      return `must be JSON text (an ${what})`;
    }
  };
}

const filter: Rule = (v) => {
  try {
    parseFilter(String(v));
    return null;
  } catch (err) {
    return `is not a filter that parses: ${(err as Error).message}`;
  }
};

/** A rule's filter: none (the allowlist, smart rules) or one that parses. */
const optionalFilter: Rule = (v) => (v === null ? null : filter(v));

const country: Rule = (v) => (v === null || isCountryCode(String(v)) ? null : 'must be a two-letter ISO 3166-1 country code, e.g. US');
const countries: Rule = (v) => {
  const problem = json('strings')(v);
  if (problem || v === null) return problem;
  const bad = (JSON.parse(String(v)) as string[]).find((c) => !isCountryCode(c));
  return bad === undefined ? null : `must hold ISO 3166-1 country codes (${JSON.stringify(bad)} is not one)`;
};
const allowlist: Rule = (v) => {
  const problem = json('strings')(v);
  if (problem || v === null) return problem;
  const bad = (JSON.parse(String(v)) as string[]).find((e) => !isValidAllowlistEntry(e));
  return bad === undefined ? null : `must hold IP addresses or CIDR ranges (${JSON.stringify(bad)} is not one)`;
};
const url: Rule = (v) => (v === null ? null : httpUrlProblem(String(v)));
// What Standard Webhooks libraries take: whsec_ and base64.
const secret: Rule = (v) => (v === null || /^whsec_[A-Za-z0-9+/]+={0,2}$/.test(String(v)) ? null : 'must be a whsec_ secret (whsec_ and base64)');

/**
 * A site's or view's name as the API takes it, or one of only white space: the API took those once,
 * and old exports hold them. A rule's name is checked with its row (ruleProblem): its API never did.
 */
const keptName: Rule = (v) => {
  const problem = v === null ? null : nameProblem(String(v));
  return problem === BLANK_NAME ? null : problem;
};

const RULES: Record<string, Record<string, Rule>> = {
  sites: { name: keptName, plan: oneOf(PLANS), country, conversion_events: json('strings'), excluded_countries: countries, ip_allowlist: allowlist },
  sessions: {
    risk_level: oneOf(RISK_LEVELS), engagement_level: oneOf(ENGAGEMENT_LEVELS), channel: oneOf(CHANNELS), device_type: oneOf(DEVICE_TYPES),
    risks: json('strings'), actions: json('strings'), custom_events: json('strings'), check_risks: json('strings'),
  },
  checks: { risk_level: oneOf(RISK_LEVELS), result: json('object') },
  saved_views: { name: keptName, filter },
  webhooks: { status: oneOf(WEBHOOK_STATUSES), url, secret },
  rules: { type: oneOf(RULE_TYPES), action: oneOf(RULE_ACTIONS), filter: optionalFilter },
  webhook_events: { status: oneOf(EVENT_STATUSES), payload: json('object') },
  webhook_attempts: { trigger: oneOf(['auto', 'manual']) },
  notifications: { kind: oneOf(NOTIFICATION_KINDS), send_pending: (v) => (v === null || v === 0 || v === 1 ? null : 'must be 0 or 1') },
};

/** The declared type's rule (INTEGER, REAL, TEXT), then the column's own. */
export function columnProblem(table: string, column: string, declaredType: string, v: Value): string | null {
  if (v !== null) {
    const type = declaredType.toUpperCase();
    if (type.includes('INT') && !(typeof v === 'number' && Number.isSafeInteger(v))) return 'must be a whole number';
    if (type === 'REAL' && !(typeof v === 'number' && Number.isFinite(v))) return 'must be a number';
    if (type === 'TEXT' && typeof v !== 'string') return 'must be a string';
    if (type === 'TEXT' && (column.endsWith('_at') || column === 'at') && !TIMESTAMP.test(v as string)) {
      return TIMESTAMP_PROBLEM;
    }
  }
  return RULES[table]?.[column]?.(v) ?? null;
}


/** Rules across a row's columns (after each column passed its own). */
export function rowProblem(table: string, row: Record<string, Value>, primaryKey: string[]): string | null {
  for (const k of primaryKey) if (row[k] == null) return `${k}: the primary key must be given`;
  if (table === 'webhook_events' && (row.status === 'delivered' || row.status === 'failed') && row.next_attempt_us != null) {
    return `next_attempt_us: must be null for a ${row.status} event (nothing more runs)`;
  }
  // Without one it would wait forever: nothing runs it, and a manual retry is refused while it waits.
  if (table === 'webhook_events' && (row.status === 'pending' || row.status === 'retrying') && row.next_attempt_us == null) {
    return `next_attempt_us: a ${row.status} event needs the time of its next attempt (microseconds since 1970; its created_us makes it due at once)`;
  }
  if (table === 'rules') return ruleProblem(row);
  // Waiting for its send means no result yet: a server with --smtp would mail it again.
  if (table === 'notifications' && row.send_pending === 1 && (row.sent_at != null || row.send_error != null)) {
    return `send_pending: must be 0 for a notification already ${row.sent_at != null ? 'sent' : 'tried (send_error)'}`;
  }
  if (table === 'meta' && row.key === 'clock_offset_ms') {
    const ms = Number(row.value);
    if (!Number.isSafeInteger(ms) || ms < 0 || ms > MAX_CLOCK_MS) return 'value: the clock offset must be a whole number of milliseconds from 0';
  }
  if (table === 'meta' && row.key === 'clock_frozen_ms') {
    const ms = Number(row.value);
    if (!Number.isSafeInteger(ms) || ms <= 0 || ms > MAX_CLOCK_MS) return 'value: the frozen clock time must be a whole number of milliseconds since 1970';
  }
  return null;
}

/**
 * A rule row as the rules API would have saved it: a name it takes (it never took a blank one), and
 * a custom rule with a filter and no threshold, or a known smart rule's settings (a threshold exactly
 * for those that count). Anything else would be ignored when the site's rules are listed, or make a
 * counting rule match every device.
 */
function ruleProblem(row: Record<string, Value | undefined>): string | null {
  if (row.type == null || row.enabled == null) return null; // missing: SQLite's NOT NULL names it
  if (row.enabled !== 0 && row.enabled !== 1) return 'enabled: must be 0 or 1';
  const named = typeof row.name === 'string' ? nameProblem(row.name) : null;
  if (named) return `name: ${named} (rule ${String(row.rule_id)} of site ${String(row.site_id)})`;
  if (row.type === 'allowlist') return 'type: the allowlist is not stored as a rule: it is the site\'s ip_allowlist';
  if (row.type === 'custom') {
    if (!String(row.rule_id).startsWith('rule_')) return 'rule_id: a custom rule\'s id starts with rule_';
    if (row.filter == null) return 'filter: a custom rule needs one';
    return row.threshold == null ? null : 'threshold: must be null: only repeat_device and emails_per_device take one';
  }
  const smart = SMART_RULES.find((d) => d.id === row.rule_id);
  if (!smart) return `rule_id: not a smart rule; those are ${SMART_RULES.map((d) => d.id).join(', ')}`;
  if (row.filter != null) return `filter: must be null: the smart rule ${smart.id} has a fixed condition`;
  if (smart.threshold === null) return row.threshold == null ? null : `threshold: must be null: ${smart.id} takes none`;
  const t = row.threshold;
  return typeof t === 'number' && t >= 1 && t <= MAX_THRESHOLD ? null : `threshold: ${smart.id} needs a whole number from 1 to ${MAX_THRESHOLD}`;
}

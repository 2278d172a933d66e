// Saved views, webhooks, their events, attempts and notifications as the management API shows them
// (contract section 7 field names).
import { CONTROL_CHARACTER, NO_CONTROL_CHARACTERS } from './names.js';

export interface SavedView {
  saved_view_id: string;
  site_id: string;
  name: string;
  filter: string;
  trigger_webhooks: boolean;
  created_at: string;
}

export const WEBHOOK_STATUSES = ['enabled', 'disabled'] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];

export interface Webhook {
  webhook_id: string;
  site_id: string;
  url: string;
  status: WebhookStatus;
  secret: string;
  consecutive_failures: number;
  created_at: string;
}

export const EVENT_STATUSES = ['pending', 'retrying', 'delivered', 'failed'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

export type AttemptTrigger = 'auto' | 'manual';

export interface WebhookAttempt {
  attempt: number;
  trigger: AttemptTrigger;
  at: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

export interface WebhookEvent {
  webhook_event_id: string;
  webhook_id: string;
  saved_view_id: string;
  saved_view_name: string;
  session_id: string;
  site_id: string;
  status: EventStatus;
  auto_retries_remaining: number;
  next_attempt_at: string | null;
  created_at: string;
  triggered_at: string;
  attempts: WebhookAttempt[];
}

export const NOTIFICATION_KINDS = ['webhook_event_failed', 'webhook_disabled'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export interface Notification {
  notification_id: string;
  kind: NotificationKind;
  site_id: string;
  webhook_id: string | null;
  webhook_event_id: string | null;
  to: string | null;
  subject: string;
  body: string;
  created_at: string;
  /** When it was handed to the SMTP server (--smtp), else null. */
  sent_at: string | null;
  /** Why sending over SMTP failed, else null. */
  send_error: string | null;
}

/** Why `url` is not an absolute http(s) URL (a webhook URL, a page URL), or null. */
export function httpUrlProblem(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'must be an absolute http:// or https:// URL';
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return `must use http or https, not ${u.protocol.replace(':', '')}`;
  return null;
}

/**
 * The http:// URL likely meant by a host and port typed without a scheme (`localhost:9000/hook`
 * parses with the scheme `localhost:`, `127.0.0.1:9000` not at all), else null.
 */
export function schemelessUrlMeant(value: string): string | null {
  return /^[\w.-]+:\d/.test(value) ? `http://${value}` : null;
}

/**
 * httpUrlProblem, and a host written out: URL parsing reads `http:///hook` as `http://hook/` (the
 * path taken for the host), a typo that would only show later as a failed delivery.
 */
export function webhookUrlProblem(url: string): string | null {
  // Checked before parsing, which drops tabs and line breaks: the URL shown would not be the one called.
  if (CONTROL_CHARACTER.test(url.trim())) return NO_CONTROL_CHARACTERS;
  return httpUrlProblem(url) ?? (/^\s*https?:[\\/]{3}/i.test(url) ? 'must name a host after "//"' : null);
}

/**
 * A webhook URL for a person to read (CLI tables, console pages, mails): a password in it is masked
 * (`https://user:***@host/`). The API's JSON keeps the URL as registered.
 */
export function urlShown(url: string): string {
  if (!url.includes('@')) return url;
  try {
    const u = new URL(url);
    if (!u.password) return url;
    u.password = '***';
    return u.href;
  } catch {
    // Not a URL (a usage error quoting what was typed): the text between "user:" and "@" still goes.
    return url.replace(/(\/\/[^/?#@:]*:)[^/?#@]*@/, '$1***@');
  }
}

/** What changed a session, as far as the saved-view trigger cares. */
/** 'test_session': made for `webhooks trigger`, whose event is made by hand; views are not evaluated. */
export type SessionChangeCause = 'custom_event' | 'test_session';

// The fields a custom event writes itself; everything else it changes is derived (engagement_level
// becoming `converted`, the risk level, ...).
const CUSTOM_EVENT_OWN_FIELDS: ReadonlySet<string> = new Set(['custom_events', 'value', 'updated_at']);

/**
 * Whether saved views are evaluated after a change. A custom event never by itself causes a webhook
 * (contract section 3): after one, views are evaluated only when it changed a derived field, and then
 * against the whole session (its custom_events included). Otherwise the session is evaluated at its
 * next other change.
 */
export function changeTriggersViews(session: object, previous: object | null, cause?: SessionChangeCause): boolean {
  if (cause === 'test_session') return false;
  if (cause !== 'custom_event' || previous === null) return true;
  const now = session as Record<string, unknown>;
  const before = previous as Record<string, unknown>;
  for (const key of Object.keys(now)) {
    if (CUSTOM_EVENT_OWN_FIELDS.has(key)) continue;
    if (!sameValue(now[key], before[key])) return true;
  }
  return false;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => x === b[i]);
  return false;
}

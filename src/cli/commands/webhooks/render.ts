import { urlShown, type Webhook, type WebhookAttempt, type WebhookEvent } from '../../../domain/webhooks.js';
import { keyValues, printable, table } from '../../output.js';
import { timeFormat } from '../../time-display.js';
import { parseMicros } from '../../../domain/time.js';

// `emulated`: the emulator's clock is frozen or manual, so its times are marked (time-display.ts).
const cellTime = (emulated: boolean) => timeFormat(emulated, true);
const head = (name: string, emulated: boolean) => `${name} (${cellTime(emulated).zone.toUpperCase()})`;

export const renderWebhooks = (hooks: Webhook[], emulated = false) =>
  table(['WEBHOOK', 'URL', 'STATUS', 'FAILURES', head('CREATED', emulated)], hooks.map((w) => [w.webhook_id, urlShown(w.url), w.status, w.consecutive_failures, cellTime(emulated)(w.created_at)]));

export const renderWebhook = (w: Webhook, emulated = false) =>
  keyValues([
    ['webhook_id', w.webhook_id],
    ['site_id', w.site_id],
    ['url', urlShown(w.url)],
    ['status', w.status],
    ['secret', w.secret],
    ['consecutive_failures', w.consecutive_failures],
    ['created_at', timeFormat(emulated)(w.created_at)],
  ]);

/** "HTTP 500", "connection refused", "HTTP 302, redirect not followed". */
export function attemptResult(a: Pick<WebhookAttempt, 'status_code' | 'error'>): string {
  const parts = [a.status_code != null ? `HTTP ${a.status_code}` : null, a.error].filter(Boolean);
  return printable(parts.join(', ')) || '-';
}

/** A webhook URL in a line of text: its password masked, any control character escaped. */
export const urlText = (url: string): string => printable(urlShown(url));

/** A finished attempt as the event stream announces it (`webhook_attempt.created`). */
export interface AttemptEvent {
  attempt: number;
  trigger: string;
  at: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  webhook_event_id: string;
  webhook_id: string;
  site_id: string;
  url: string | null;
  event_status: string;
  next_attempt_at: string | null;
}

/** A webhook as the event stream announces its changes (`webhook.updated`). */
export interface WebhookEventData {
  webhook_id: string;
  site_id: string;
  url: string;
  status: string;
  consecutive_failures: number;
}

/** Retries left mean something only while they may still run; a finished event shows "-" (--json keeps the number). */
const retriesLeft = (e: Pick<WebhookEvent, 'status' | 'auto_retries_remaining'>) =>
  e.status === 'pending' || e.status === 'retrying' ? e.auto_retries_remaining : '-';

/** `now`: the emulator's time, by which an attempt already due shows as under way. */
/** `held`: the sites on the free plan, whose due attempts wait for the plan rather than run. */
export function renderEvents(events: WebhookEvent[], emulated = false, now: string | null = null, held: ReadonlySet<string> = new Set()): string {
  const t = cellTime(emulated);
  return table(
    ['EVENT', 'STATUS', 'ATTEMPTS', 'RETRIES LEFT', head('NEXT ATTEMPT', emulated), 'VIEW', 'SESSION', head('CREATED', emulated)],
    events.map((e) => [
      e.webhook_event_id, e.status, e.attempts.length, retriesLeft(e),
      dueNow(e, now) ? (held.has(e.site_id) ? 'held (free plan)' : 'under way') : t(e.next_attempt_at), e.saved_view_name, e.session_id, t(e.created_at),
    ]),
  );
}

export const renderAttempts = (attempts: WebhookAttempt[], emulated = false) =>
  table(['#', 'TRIGGER', head('AT', emulated), 'RESULT', 'DURATION'], attempts.map((a) => [a.attempt, a.trigger, cellTime(emulated)(a.at), attemptResult(a), `${a.duration_ms}ms`]));

/**
 * Whether the event's attempt is due by the emulator's clock (`now`, from /clock): the dispatcher runs
 * a due attempt at once, so until its result is written the attempt is under way, not "next".
 */
function dueNow(e: Pick<WebhookEvent, 'status' | 'next_attempt_at'>, now: string | null | undefined): boolean {
  if (!now || !e.next_attempt_at || (e.status !== 'pending' && e.status !== 'retrying')) return false;
  const due = parseMicros(e.next_attempt_at);
  const at = parseMicros(now);
  // /clock has whole milliseconds; a frozen clock's writes add µs within its millisecond.
  return due != null && at != null && due - 999 <= at;
}

/**
 * One event: its fields, its attempts, and with `payload` the body every attempt sent. `now`, the
 * emulator's time, tells an attempt under way from one still to come.
 */
export function renderEvent(e: WebhookEvent & { payload?: unknown }, opts: { url?: string | null; payload?: boolean; emulated?: boolean; now?: string | null; held?: boolean } = {}): string {
  const t = timeFormat(opts.emulated ?? false);
  const due = dueNow(e, opts.now);
  // A free-plan site holds its due attempts: nothing runs until it is paid again.
  const running = due && !opts.held;
  const next = running
    ? `due since ${t(e.next_attempt_at)}: an attempt is under way (its result: vtr webhooks tail, or run this again)`
    : due
      ? `due since ${t(e.next_attempt_at)}: held while site ${e.site_id} is on the free plan (vtr sites update ${e.site_id} --plan paid runs it)`
      : t(e.next_attempt_at);
  const fields = keyValues([
    ['webhook_event_id', e.webhook_event_id],
    ['webhook_id', opts.url ? `${e.webhook_id} (${urlShown(opts.url)})` : e.webhook_id],
    ['status', e.status],
    ['saved_view', `${e.saved_view_name} (${e.saved_view_id})`],
    ['session_id', e.session_id],
    ['auto_retries_remaining', retriesLeft(e)],
    ['next_attempt_at', next],
    ['created_at', t(e.created_at)],
    ['triggered_at', t(e.triggered_at)],
  ]);
  const none = running ? 'No attempt recorded yet: the first is under way.' : 'No attempts yet.';
  const attempts = e.attempts.length ? renderAttempts(e.attempts, opts.emulated) : none;
  const body = opts.payload && e.payload !== undefined ? `\n\nPayload (each attempt sends it with its own "attempt"):\n${JSON.stringify(e.payload, null, 2)}` : '';
  return `${fields}\n\n${attempts}${body}`;
}

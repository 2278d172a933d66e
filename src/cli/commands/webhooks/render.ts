import type { Webhook, WebhookAttempt, WebhookEvent } from '../../../domain/webhooks.js';
import { keyValues, table } from '../../output.js';

export const renderWebhooks = (hooks: Webhook[]) =>
  table(['WEBHOOK', 'URL', 'STATUS', 'FAILURES', 'CREATED'], hooks.map((w) => [w.webhook_id, w.url, w.status, w.consecutive_failures, w.created_at]));

export const renderWebhook = (w: Webhook) =>
  keyValues([
    ['webhook_id', w.webhook_id],
    ['site_id', w.site_id],
    ['url', w.url],
    ['status', w.status],
    ['secret', w.secret],
    ['consecutive_failures', w.consecutive_failures],
    ['created_at', w.created_at],
  ]);

/** "HTTP 500", "connection refused", "HTTP 302, redirect not followed". */
export function attemptResult(a: Pick<WebhookAttempt, 'status_code' | 'error'>): string {
  const parts = [a.status_code != null ? `HTTP ${a.status_code}` : null, a.error].filter(Boolean);
  return parts.join(', ') || '-';
}

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

export const renderEvents = (events: WebhookEvent[]) =>
  table(
    ['EVENT', 'STATUS', 'ATTEMPTS', 'RETRIES LEFT', 'NEXT ATTEMPT', 'VIEW', 'SESSION', 'CREATED'],
    events.map((e) => [
      e.webhook_event_id, e.status, e.attempts.length, retriesLeft(e),
      e.next_attempt_at, e.saved_view_name, e.session_id, e.created_at,
    ]),
  );

export const renderAttempts = (attempts: WebhookAttempt[]) =>
  table(['#', 'TRIGGER', 'AT', 'RESULT', 'DURATION'], attempts.map((a) => [a.attempt, a.trigger, a.at, attemptResult(a), `${a.duration_ms}ms`]));

/** One event: its fields, its attempts, and with `payload` the body every attempt sent. */
export function renderEvent(e: WebhookEvent & { payload?: unknown }, opts: { url?: string | null; payload?: boolean } = {}): string {
  const head = keyValues([
    ['webhook_event_id', e.webhook_event_id],
    ['webhook_id', opts.url ? `${e.webhook_id} (${opts.url})` : e.webhook_id],
    ['status', e.status],
    ['saved_view', `${e.saved_view_name} (${e.saved_view_id})`],
    ['session_id', e.session_id],
    ['auto_retries_remaining', retriesLeft(e)],
    ['next_attempt_at', e.next_attempt_at],
    ['created_at', e.created_at],
    ['triggered_at', e.triggered_at],
  ]);
  const attempts = e.attempts.length ? renderAttempts(e.attempts) : 'No attempts yet.';
  const body = opts.payload && e.payload !== undefined ? `\n\nPayload (each attempt sends it with its own "attempt"):\n${JSON.stringify(e.payload, null, 2)}` : '';
  return `${head}\n\n${attempts}${body}`;
}

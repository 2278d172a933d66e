import type { EventStatus, WebhookAttempt, WebhookEvent } from '../domain/webhooks.js';
import type { Db } from './db.js';
import { whereOf } from './where.js';

/** A webhook event as stored: its schedule in epoch µs and the payload fixed at trigger time. */
export interface WebhookEventRecord extends Omit<WebhookEvent, 'next_attempt_at' | 'attempts'> {
  next_attempt_us: number | null;
  created_us: number;
  /** JSON of the body without `attempt` (added per attempt). */
  payload: string;
}

export interface EventQuery {
  webhookId?: string;
  siteId?: string;
  sessionId?: string;
  status?: EventStatus;
  limit?: number;
  /** Only events after this one in the list's order (newest first; a page's cursor). */
  before?: { created_us: number; webhook_event_id: string };
}

export function createWebhookEventStore(db: Db) {
  const cols =
    'webhook_event_id, webhook_id, saved_view_id, saved_view_name, session_id, site_id, status, auto_retries_remaining, next_attempt_us, created_us, created_at, triggered_at, payload';
  const insert = db.prepare(`INSERT INTO webhook_events (${cols}) VALUES (${cols.split(', ').map((c) => `@${c}`).join(', ')})`);
  const byId = db.prepare<[string], WebhookEventRecord>('SELECT * FROM webhook_events WHERE webhook_event_id = ?');
  const setState = db.prepare(
    'UPDATE webhook_events SET status = @status, auto_retries_remaining = @auto_retries_remaining, next_attempt_us = @next_attempt_us WHERE webhook_event_id = @webhook_event_id',
  );
  // Only paid sites deliver: a site moved to `free` holds its events until it is paid again.
  const due = db.prepare<[number, number], WebhookEventRecord>(
    `SELECT e.* FROM webhook_events e JOIN sites s ON s.site_id = e.site_id
     WHERE e.next_attempt_us IS NOT NULL AND e.next_attempt_us <= ? AND s.plan = 'paid'
     ORDER BY e.next_attempt_us LIMIT ?`,
  );
  const nextDue = db.prepare<[number], { at: number | null }>(
    `SELECT min(e.next_attempt_us) AS at FROM webhook_events e JOIN sites s ON s.site_id = e.site_id
     WHERE e.next_attempt_us IS NOT NULL AND e.next_attempt_us > ? AND s.plan = 'paid'`,
  );
  const scheduled = db.prepare<[string], WebhookEventRecord>(
    'SELECT * FROM webhook_events WHERE webhook_id = ? AND next_attempt_us IS NOT NULL',
  );
  const attempts = db.prepare<[string], WebhookAttempt>(
    'SELECT attempt, trigger, at, status_code, error, duration_ms FROM webhook_attempts WHERE webhook_event_id = ? ORDER BY attempt',
  );
  const lastAttempt = db.prepare<[string], { n: number | null }>('SELECT max(attempt) AS n FROM webhook_attempts WHERE webhook_event_id = ?');
  const insertAttempt = db.prepare(
    'INSERT INTO webhook_attempts (webhook_event_id, attempt, trigger, at, status_code, error, duration_ms) VALUES (@webhook_event_id, @attempt, @trigger, @at, @status_code, @error, @duration_ms)',
  );

  return {
    insert: (e: WebhookEventRecord) => void insert.run(e),
    get: (id: string): WebhookEventRecord | null => byId.get(id) ?? null,
    setState: (e: Pick<WebhookEventRecord, 'webhook_event_id' | 'status' | 'auto_retries_remaining' | 'next_attempt_us'>) =>
      void setState.run({
        webhook_event_id: e.webhook_event_id,
        status: e.status,
        auto_retries_remaining: e.auto_retries_remaining,
        next_attempt_us: e.next_attempt_us,
      }),
    /** Events whose next automatic attempt is due at `nowUs`, oldest schedule first. */
    due: (nowUs: number, limit: number) => due.all(nowUs, limit),
    /** The earliest scheduled attempt after `nowUs`, or null. */
    nextDueAfter: (nowUs: number) => nextDue.get(nowUs)?.at ?? null,
    /** A webhook's events that still have an automatic attempt scheduled. */
    scheduledFor: (webhookId: string) => scheduled.all(webhookId),
    list(q: EventQuery): WebhookEventRecord[] {
      const { where, params } = whereOf([
        q.webhookId && ['webhook_id = ?', q.webhookId],
        q.siteId && ['site_id = ?', q.siteId],
        q.sessionId && ['session_id = ?', q.sessionId],
        q.status && ['status = ?', q.status],
        // Events of one trigger share created_us: the id breaks the tie, so no page skips one.
        q.before && ['(created_us < ? OR (created_us = ? AND webhook_event_id < ?))', q.before.created_us, q.before.created_us, q.before.webhook_event_id],
      ]);
      const sql = `SELECT * FROM webhook_events ${where} ORDER BY created_us DESC, webhook_event_id DESC LIMIT ?`;
      return db.prepare<Array<string | number>, WebhookEventRecord>(sql).all(...params, q.limit ?? 100);
    },
    attempts: (eventId: string) => attempts.all(eventId),
    lastAttemptNumber: (eventId: string) => lastAttempt.get(eventId)?.n ?? 0,
    insertAttempt: (eventId: string, a: WebhookAttempt) => void insertAttempt.run({ webhook_event_id: eventId, ...a }),
  };
}
export type WebhookEventStore = ReturnType<typeof createWebhookEventStore>;

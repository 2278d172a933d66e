/**
 * Every event type of the console's stream. EventSource listens by exact name, so vtrLive expands
 * a prefix such as 'webhook_event.' to the names here. The server checks this list against its
 * event bus at compile time (src/server/console/stream-types.ts).
 */
export const STREAM_TYPES = [
  'session.created', 'session.updated', 'check.created', 'webhook_event.created', 'webhook_event.updated',
  'webhook_attempt.started', 'webhook_attempt.created', 'webhook.created', 'webhook.updated', 'webhook.deleted',
  'notification.created', 'notification.updated', 'request.logged', 'clock.changed', 'site.created', 'site.updated', 'site.deleted',
  'access_token.created', 'access_token.revoked', 'saved_view.created', 'saved_view.updated', 'saved_view.deleted', 'rule.created', 'rule.updated', 'rule.deleted', 'state.replaced',
] as const;

/** What the shared stream (console-stream-worker.ts) tells each tab: the stream's state, or an event. */
export type StreamState = 'connecting' | 'open' | 'reconnecting' | 'closed';
export type ToTab = { state: StreamState } | { type: string; data: string };

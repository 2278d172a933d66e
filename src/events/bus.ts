import { EventEmitter } from 'node:events';

/** Everything that happens, for the SSE stream, `tail` commands and the console. */
export type EmulatorEvent =
  | { type: 'session.created' | 'session.updated'; data: Record<string, unknown> }
  | { type: 'check.created'; data: Record<string, unknown> }
  | { type: 'webhook_event.created' | 'webhook_event.updated'; data: Record<string, unknown> }
  | { type: 'webhook_attempt.started' | 'webhook_attempt.created'; data: Record<string, unknown> }
  | { type: 'webhook.created' | 'webhook.updated' | 'webhook.deleted'; data: Record<string, unknown> }
  | { type: 'site.created' | 'site.updated' | 'site.deleted'; data: Record<string, unknown> }
  | { type: 'access_token.created' | 'access_token.revoked'; data: Record<string, unknown> }
  | { type: 'saved_view.created' | 'saved_view.updated' | 'saved_view.deleted'; data: Record<string, unknown> }
  | { type: 'rule.created' | 'rule.updated' | 'rule.deleted'; data: Record<string, unknown> }
  | { type: 'state.replaced'; data: Record<string, unknown> }
  | { type: 'notification.created' | 'notification.updated'; data: Record<string, unknown> }
  | { type: 'request.logged'; data: Record<string, unknown> }
  | { type: 'clock.changed'; data: Record<string, unknown> };

/** Every event type, for refusing a `?types=` that names none of them (a typo would stream nothing). */
export const EVENT_TYPES = [
  'session.created', 'session.updated', 'check.created', 'webhook_event.created', 'webhook_event.updated',
  'webhook_attempt.started', 'webhook_attempt.created', 'webhook.created', 'webhook.updated', 'webhook.deleted',
  'site.created', 'site.updated', 'site.deleted', 'access_token.created', 'access_token.revoked',
  'saved_view.created', 'saved_view.updated', 'saved_view.deleted', 'rule.created', 'rule.updated', 'rule.deleted',
  'state.replaced', 'notification.created', 'notification.updated', 'request.logged', 'clock.changed',
] as const satisfies readonly EmulatorEvent['type'][];
// Does not compile when a type of EmulatorEvent is missing from EVENT_TYPES.
const allListed: Exclude<EmulatorEvent['type'], (typeof EVENT_TYPES)[number]> extends never ? true : never = true;
void allListed;

export interface EventBus {
  publish(event: EmulatorEvent): void;
  /** `accepts`: the event types this listener reads (all when absent); see wants(). */
  subscribe(listener: (event: EmulatorEvent) => void, accepts?: (type: EmulatorEvent['type']) => boolean): () => void;
  /** Whether a listener reads events of this type: a publisher may skip building one nobody reads. */
  wants(type: EmulatorEvent['type']): boolean;
  /** The emulator is stopping: long-lived streams end so the server can close. */
  shutdown(): void;
  onShutdown(listener: () => void): () => void;
}

/**
 * `defer`: holds an event published inside a transaction until its COMMIT, and drops it on a
 * rollback (the store's afterCommit): subscribers never hear of a row that is not there.
 */
export function createEventBus({ defer }: { defer?: (deliver: () => void) => void } = {}): EventBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  // Each subscription (one function subscribed twice is two) and the types it reads; null: all.
  const listeners = new Map<object, { listener: (event: EmulatorEvent) => void; accepts: ((type: EmulatorEvent['type']) => boolean) | null }>();
  return {
    publish(event) {
      // A snapshot: a listener may unsubscribe (or subscribe) while the event is delivered.
      const deliver = () => {
        for (const { listener } of [...listeners.values()]) listener(event);
      };
      if (defer) defer(deliver);
      else deliver();
    },
    subscribe(listener, accepts) {
      const key = {};
      listeners.set(key, { listener, accepts: accepts ?? null });
      return () => void listeners.delete(key);
    },
    wants(type) {
      for (const { accepts } of listeners.values()) if (!accepts || accepts(type)) return true;
      return false;
    },
    shutdown: () => void emitter.emit('shutdown'),
    onShutdown(listener) {
      emitter.on('shutdown', listener);
      return () => void emitter.off('shutdown', listener);
    },
  };
}

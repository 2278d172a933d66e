// Webhooks of a site and their event history (the console's "Manage site → Webhooks" pages).
import type { Clock } from '../domain/clock.js';
import type { EventStatus, Notification, Webhook, WebhookEvent } from '../domain/webhooks.js';
import { schemelessUrlMeant, urlShown, webhookUrlProblem } from '../domain/webhooks.js';
import { NO_RUN } from '../domain/disabling.js';
import { manualRetryRefusal, type RetryRefusal } from '../domain/webhook-event.js';
import { notFound, shownId, unknownCursor, VtrError } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import { formatMicros } from '../domain/time.js';
import type { EventBus } from '../events/bus.js';
import type { Store } from '../store/index.js';
import type { WebhookRecord } from '../store/webhooks.js';
import { loadEventJson, webhookJson } from './json.js';
import { noEffects, stopScheduled } from './outcome.js';
import type { WebhookDispatcher } from './dispatcher.js';
import type { TestEventInput } from './test-event.js';

export interface WebhookServiceDeps {
  store: Store;
  clock: Clock;
  bus: EventBus;
  dispatcher: WebhookDispatcher;
  /** `webhooks trigger` (test-event.ts). */
  testEvent?: (webhookId: string, input: TestEventInput) => WebhookEvent & { payload: unknown };
}

/**
 * The URL as stored: without the spaces or line break a paste brings along (URL parsing drops them
 * anyway). One refused names the URL likely meant (its password masked), as `vtr webhooks create --url` does.
 */
function checkUrl(given: string): string {
  const url = given.trim();
  const problem = webhookUrlProblem(url);
  if (!problem) return url;
  const meant = schemelessUrlMeant(url);
  throw new VtrError('invalid_request', `url: ${problem}${meant ? ` (did you mean ${urlShown(meant)}?)` : ''}`, { field: 'url' });
}

export function createWebhookService({ store, clock, bus, dispatcher, testEvent }: WebhookServiceDeps) {
  function record(id: string): WebhookRecord {
    const w = store.webhooks.get(id);
    if (!w) throw notFound(`webhook ${shownId(id)}`);
    return w;
  }
  const announce = (id: string): Webhook => {
    const w = webhookJson(record(id));
    bus.publish({ type: 'webhook.updated', data: { ...w } });
    return w;
  };

  /** Whether the status changed (one already so is left as it is: no new run, nothing announced). */
  function setStatus(id: string, status: 'enabled' | 'disabled'): boolean {
    const fx = noEffects();
    const changed = store.tx(() => {
      const w = record(id);
      if (w.status === status) return false;
      store.webhooks.setStatus(id, status);
      // Re-enabling starts a fresh failure run; disabling stops pending retries (events → failed).
      if (status === 'enabled') store.webhooks.setRun(id, NO_RUN.consecutive_failures, NO_RUN.run_started_us);
      else stopScheduled(store, id, fx);
      return true;
    });
    for (const e of fx.events) bus.publish(e);
    return changed;
  }
  const statusTo = (id: string, status: 'enabled' | 'disabled'): Webhook => (setStatus(id, status) ? announce(id) : webhookJson(record(id)));

  return {
    list(siteId?: string): Webhook[] {
      if (!siteId) return store.webhooks.list().map(webhookJson);
      if (!store.sites.get(siteId)) throw notFound(`site ${shownId(siteId)}`);
      return store.webhooks.forSite(siteId).map(webhookJson);
    },
    get: (id: string): Webhook => webhookJson(record(id)),
    create(siteId: string, given: string): Webhook {
      const site = store.sites.get(siteId);
      if (!site) throw notFound(`site ${shownId(siteId)}`);
      const url = checkUrl(given);
      if (site.plan !== 'paid') {
        throw new VtrError('plan_required', `webhooks are available on paid plans only; site ${siteId} is on the free plan (vtr sites update ${siteId} --plan paid)`);
      }
      const w: WebhookRecord = {
        webhook_id: newId.webhook(),
        site_id: siteId,
        url,
        status: 'enabled',
        secret: newId.webhookSecret(),
        consecutive_failures: 0,
        failure_run_started_us: null,
        created_at: formatMicros(clock.nowMicros()),
      };
      store.webhooks.insert(w);
      const created = webhookJson(w);
      bus.publish({ type: 'webhook.created', data: { ...created } });
      return created;
    },
    update(id: string, input: { url?: string; status?: 'enabled' | 'disabled' }): Webhook {
      let changed = false;
      if (input.url !== undefined) {
        const url = checkUrl(input.url);
        if (record(id).url !== url) {
          store.webhooks.setUrl(id, url);
          changed = true;
        }
      }
      if (input.status !== undefined && setStatus(id, input.status)) changed = true;
      // {} or the values it has: nothing changed, nothing to tell the stream's listeners.
      return changed ? announce(id) : webhookJson(record(id));
    },
    enable: (id: string) => statusTo(id, 'enabled'),
    disable: (id: string) => statusTo(id, 'disabled'),
    /** Deletes the webhook with its events and attempts. */
    delete(id: string): Webhook {
      const w = webhookJson(record(id));
      store.webhooks.delete(id);
      bus.publish({ type: 'webhook.deleted', data: { ...w } });
      return w;
    },
    /** Newest first; `before` (an event of this webhook) pages on, an id that names none is a 400. */
    events(webhookId: string, q: { status?: EventStatus; limit?: number; before?: string } = {}): WebhookEvent[] {
      record(webhookId);
      const cursor = q.before ? store.webhookEvents.get(q.before) : null;
      if (q.before && cursor?.webhook_id !== webhookId) throw unknownCursor('webhook event', q.before);
      return store.webhookEvents.list({ webhookId, status: q.status, limit: q.limit, before: cursor ?? undefined }).map((e) => loadEventJson(store, e));
    },
    /** The events a session caused (every webhook), newest first: the console's session page. */
    sessionEvents(sessionId: string, limit = 100): WebhookEvent[] {
      return store.webhookEvents.list({ sessionId, limit }).map((e) => loadEventJson(store, e));
    },
    event(id: string): WebhookEvent & { payload: unknown } {
      const e = store.webhookEvents.get(id);
      if (!e) throw notFound(`webhook event ${shownId(id)}`);
      return { ...loadEventJson(store, e), payload: JSON.parse(e.payload) as unknown };
    },
    retry: (eventId: string) => dispatcher.retry(eventId),
    /** A saved_view event now, for a session and view given or made up (test-event.ts). */
    trigger(webhookId: string, input: TestEventInput = {}): WebhookEvent & { payload: unknown } {
      if (!testEvent) throw new VtrError('conflict', 'test events are not available in this emulator');
      return testEvent(webhookId, input);
    },
    /** Why `retry` would refuse the event as it is stored (attempts running now aside), or null. */
    retryRefusal(eventId: string): RetryRefusal | null {
      const e = store.webhookEvents.get(eventId);
      if (!e) throw notFound(`webhook event ${shownId(eventId)}`);
      return manualRetryRefusal(e);
    },
    /** Whether an attempt of the event is running now (a manual retry would be refused). */
    attemptRunning: (eventId: string) => dispatcher.running(eventId),
    notifications(q: { siteId?: string; limit?: number; before?: string } = {}): Notification[] {
      const before = q.before ? store.notifications.cursor(q.before) : null;
      if (q.before && !before) throw unknownCursor('notification', q.before);
      return store.notifications.list({ siteId: q.siteId, limit: q.limit, before: before ?? undefined });
    },
    /** Of these notifications, the ones whose SMTP send is still to happen (not part of their JSON). */
    sendsWaiting: (ids: string[]): Set<string> => store.notifications.waitingAmong(ids),
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;

// The saved-view trigger (contract section 6), as session hooks. On every session change, inside
// its write transaction, each view of the site is evaluated; a session matching a view for the first
// time is recorded in view_matches (once per session and view), and when the view has
// trigger_webhooks and the site is paid, one event per enabled webhook is written with its first
// attempt due now. After commit the events are announced and the dispatcher woken. A custom event
// that changes no derived field evaluates nothing (it never by itself causes a webhook).
// Views are never backfilled: creating or changing a view does not evaluate existing sessions.
import type { Clock } from '../domain/clock.js';
import type { Session } from '../domain/session.js';
import type { RetryPolicy } from '../domain/retry-policy.js';
import { changeTriggersViews, type SessionChangeCause } from '../domain/webhooks.js';
import { createFilterCache, matchesFilter } from '../domain/filter/index.js';
import { formatMicros } from '../domain/time.js';
import type { EventBus } from '../events/bus.js';
import type { SessionHooks } from '../sessions/service.js';
import type { Store } from '../store/index.js';
import type { WebhookEventRecord } from '../store/webhook-events.js';
import type { WebhookRecord } from '../store/webhooks.js';
import { eventJson } from './json.js';
import { newEventRecord } from './payload.js';

export interface TriggerDeps {
  store: Store;
  clock: Clock;
  bus: EventBus;
  policy: RetryPolicy;
  /** Wakes the dispatcher. */
  kick: () => void;
}

export function createTrigger({ store, clock, bus, policy, kick }: TriggerDeps): Required<SessionHooks> {
  // Events written for a session since its last afterCommit, announced by the next one. Several
  // changes of one transaction (a batch) add up. A rolled-back write never reaches afterCommit; what
  // it left here is dropped at the next announcement (those events are not in the store).
  const written = new Map<string, WebhookEventRecord[]>();
  const filterOf = createFilterCache();

  return {
    inTransaction(session: Session, previous: Session | null, cause?: SessionChangeCause) {
      const views = store.views.forSite(session.site_id);
      if (views.length === 0 || !changeTriggersViews(session, previous, cause)) return;
      const nowUs = clock.nowMicros();
      const at = formatMicros(nowUs);
      const created: WebhookEventRecord[] = [];
      let hooks: WebhookRecord[] | null = null;
      for (const view of views) {
        const node = filterOf(view.filter);
        if (!node || !matchesFilter(node, session)) continue;
        if (!store.views.matches.add(view.saved_view_id, session.session_id, at)) continue; // matched before
        if (!view.trigger_webhooks) continue;
        if (hooks === null) hooks = store.sites.get(session.site_id)?.plan === 'paid' ? store.webhooks.enabledForSite(session.site_id) : [];
        for (const wh of hooks) {
          const rec = newEventRecord(session, view, wh, nowUs, policy);
          store.webhookEvents.insert(rec);
          created.push(rec);
        }
      }
      if (created.length) written.set(session.session_id, [...(written.get(session.session_id) ?? []), ...created]);
    },
    afterCommit(session: Session) {
      const created = written.get(session.session_id);
      if (!created) return;
      written.delete(session.session_id);
      const stored = created.filter((e) => store.webhookEvents.get(e.webhook_event_id) !== null);
      for (const e of stored) bus.publish({ type: 'webhook_event.created', data: { ...eventJson(e, []) } });
      if (stored.length) kick();
    },
  };
}

// `vtr webhooks trigger`: a saved_view event made on purpose, through the normal outbox (signed,
// retried, recorded, tail-able), so a receiver can be exercised without building a session that
// matches a view. The session is the given one, or a new one made from test values (a clean
// residential IP, an ordinary browser); views are not evaluated for it, so the test event is the
// only one it causes. The view is the given one, else the site's first view, else a synthetic view
// (TEST_VIEW_ID) that exists only in test events.
import type { Clock } from '../domain/clock.js';
import { notFound, shownId, VtrError } from '../domain/errors.js';
import type { RetryPolicy } from '../domain/retry-policy.js';
import type { Session } from '../domain/session.js';
import { formatMicros } from '../domain/time.js';
import type { SavedView, WebhookEvent } from '../domain/webhooks.js';
import type { EventBus } from '../events/bus.js';
import { DEFAULT_SPEC } from '../sessions/create.js';
import type { SessionService } from '../sessions/service.js';
import type { Store } from '../store/index.js';
import { eventJson, loadEventJson } from './json.js';
import { newEventRecord } from './payload.js';

export const TEST_VIEW_ID = 'view_test';
export const TEST_VIEW_NAME = 'Test event';

export interface TestEventDeps {
  store: Store;
  clock: Clock;
  bus: EventBus;
  policy: RetryPolicy;
  sessions: SessionService;
  /** Wakes the dispatcher. */
  kick: () => void;
}

export interface TestEventInput {
  session_id?: string;
  saved_view_id?: string;
}

export function createTestEvents({ store, clock, bus, policy, sessions, kick }: TestEventDeps) {
  const siteNamed = (id: string) => `${id} ("${store.sites.get(id)?.name ?? ''}")`;
  /**
   * A session or view that exists on another site: the management API sees every site, so it says
   * which one, and the three ways on (the usual slip is a session or webhook id from the wrong site).
   */
  function onOtherSite(what: string, id: string, on: string, siteId: string, fix: string): VtrError {
    return new VtrError('not_found',
      `${what} ${id} is on site ${siteNamed(on)}, not on the webhook's site ${siteNamed(siteId)}: ${fix}, ` +
      `or trigger a webhook of ${on} (vtr webhooks list --site ${on})`);
  }

  function viewFor(siteId: string, viewId: string | undefined, at: string): SavedView {
    if (viewId) {
      const v = store.views.get(viewId);
      if (!v) throw notFound(`saved view ${shownId(viewId)} (on the webhook's site ${shownId(siteId)})`);
      if (v.site_id !== siteId) {
        throw onOtherSite('saved view', viewId, v.site_id, siteId, `give a view of ${siteId} (vtr views list --site ${siteId}), leave the view out for the site's first one`);
      }
      return v;
    }
    return store.views.forSite(siteId)[0] ?? { saved_view_id: TEST_VIEW_ID, site_id: siteId, name: TEST_VIEW_NAME, filter: '', trigger_webhooks: true, created_at: at };
  }

  function sessionFor(siteId: string, sessionId: string | undefined): Session {
    if (sessionId) {
      const r = store.sessions.get(sessionId);
      if (!r) throw notFound(`session ${shownId(sessionId)} (on the webhook's site ${shownId(siteId)})`);
      if (r.session.site_id !== siteId) {
        throw onOtherSite('session', sessionId, r.session.site_id, siteId, `give a session of ${siteId} (vtr sessions list --site ${siteId}), leave the session out for a new test session`);
      }
      return r.session;
    }
    const site = store.sites.get(siteId);
    if (!site) throw notFound(`site ${shownId(siteId)}`);
    const pv = { url: 'https://example.com/?utm_source=vtr-test', referrer: null, user_agent: DEFAULT_SPEC.user_agent, ip: '192.0.2.77', language: DEFAULT_SPEC.language, timezone: null };
    return sessions.recordPageView(site, pv, { newSession: true, cause: 'test_session' }).session;
  }

  /** Writes the event (first attempt due now), announces it and wakes the dispatcher. */
  return function trigger(webhookId: string, input: TestEventInput = {}): WebhookEvent & { payload: unknown } {
    const wh = store.webhooks.get(webhookId);
    if (!wh) throw notFound(`webhook ${shownId(webhookId)}`);
    if (wh.status !== 'enabled') {
      throw new VtrError('webhook_disabled', `webhook ${webhookId} is disabled: a disabled webhook gets no new events; enable it first (vtr webhooks enable ${webhookId})`);
    }
    if (store.sites.get(wh.site_id)?.plan !== 'paid') {
      throw new VtrError('plan_required', `site ${wh.site_id} is on the free plan: webhooks deliver on paid sites only (vtr sites update ${wh.site_id} --plan paid)`);
    }
    // Checked before a test session is made: an unknown view leaves nothing behind.
    viewFor(wh.site_id, input.saved_view_id, '');
    const session = sessionFor(wh.site_id, input.session_id);
    const rec = store.tx(() => {
      const nowUs = clock.nowMicros();
      const at = formatMicros(nowUs);
      const view = viewFor(wh.site_id, input.saved_view_id, at);
      const r = newEventRecord(session, view, wh, nowUs, policy);
      store.webhookEvents.insert(r);
      return r;
    });
    bus.publish({ type: 'webhook_event.created', data: { ...eventJson(rec, []) } });
    const answer = { ...loadEventJson(store, rec), payload: JSON.parse(rec.payload) as unknown };
    kick();
    return answer;
  };
}

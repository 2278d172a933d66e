// Sessions as the service keeps them: page views extend or start a session, custom events and
// visitor checks change it, and every change is written (with whatever the hooks add) in one
// transaction. Its parts: writes.ts (transactions, hooks, batches), page-views.ts,
// custom-events.ts (and conversions), list.ts (reads).
import type { Clock } from '../domain/clock.js';
import type { CountryLookup } from '../domain/ip-intel.js';
import { mergeActions } from '../domain/rules.js';
import type { Session } from '../domain/session.js';
import type { EventBus } from '../events/bus.js';
import type { Store } from '../store/index.js';
import { createCustomEvents } from './custom-events.js';
import { withDerivedLevels } from './derive.js';
import { createSessionReads } from './list.js';
import { createPageViews } from './page-views.js';
import { createSessionWrites } from './writes.js';

export { emptySession } from './empty-session.js';
export { SESSION_TIMEOUT_US, type PageViewOptions } from './page-views.js';
export type { SessionHooks } from './writes.js';

export interface SessionServiceDeps {
  store: Store;
  clock: Clock;
  bus: EventBus;
  countryOf?: CountryLookup;
}

export function createSessionService(deps: SessionServiceDeps) {
  const { store, countryOf } = deps;
  const writes = createSessionWrites(deps);
  const pageViews = createPageViews(deps, writes);
  const events = createCustomEvents(store, writes, pageViews.isCurrent);

  /**
   * Records a visitor check on the probe's session in one change: the risks it found, then the
   * actions its rules took, decided (`decide`) on the session as those risks leave it. Saved views
   * and webhooks see both at once, never the risks without the actions.
   */
  function recordCheck(sessionId: string, risks: readonly string[], decide: (withRisks: Session) => readonly string[]): Session {
    return writes.change(sessionId, null, (rec, _nowUs, site) => {
      rec.check_risks = [...new Set([...rec.check_risks, ...risks])];
      const actions = decide(withDerivedLevels(rec.session, site, rec.check_risks, countryOf));
      rec.session = { ...rec.session, actions: mergeActions(rec.session.actions, actions) };
    });
  }

  return {
    recordPageView: pageViews.recordPageView,
    addCustomEvent: events.addCustomEvent,
    appendAgentEvent: events.appendAgentEvent,
    appendCustomEvent: events.appendCustomEvent,
    recordCheck,
    addConversion: events.addConversion,
    ping: pageViews.ping,
    ...createSessionReads(store),
    batch: writes.batch,
    addHooks: writes.addHooks,
  };
}

export type SessionService = ReturnType<typeof createSessionService>;

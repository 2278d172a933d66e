// Custom events on a session (the public API's, the agent's `vtr.event`, `sessions create --event`)
// and conversions, which are the site's conversion event added once.
import { addDecimals } from '../domain/decimal.js';
import { notFound, VtrError } from '../domain/errors.js';
import type { Session } from '../domain/session.js';
import type { Site } from '../domain/site.js';
import type { SessionRecord, Store } from '../store/index.js';
import type { SessionWrites } from './writes.js';

/** `isCurrent`: whether a session is still its visitor's current one (page-views.ts). */
export function createCustomEvents(store: Store, w: SessionWrites, isCurrent: (rec: SessionRecord) => boolean) {
  /**
   * Appends a custom event and returns the session. `partOfCreation`: the event is part of building
   * the session (`vtr sessions create --event`), so saved views see the change as they see its page
   * views; otherwise a custom event alone never triggers a webhook (contract §3).
   */
  function addCustomEvent(
    sessionId: string, siteId: string | null, name: string, value?: number | null, opts: { atUs?: number; partOfCreation?: boolean } = {},
  ): Session {
    return w.change(sessionId, siteId, (rec) => {
      rec.session.custom_events = [...rec.session.custom_events, name];
      if (typeof value === 'number' && Number.isFinite(value)) {
        const sum = addDecimals(rec.session.value ?? 0, value);
        // JSON has no Infinity: the session would answer `value: null`, its value lost.
        if (!Number.isFinite(sum)) throw new VtrError('invalid_request', "value: the session's value would pass the largest number JSON carries", { field: 'value' });
        rec.session.value = sum;
      }
    }, opts.atUs, opts.partOfCreation ? undefined : 'custom_event');
  }

  return {
    addCustomEvent,
    /**
     * The agent's `vtr.event`: a custom event of the visitor's current session. An ended session is
     * refused (`session_expired`), so the page records a page view, which starts or joins the current
     * session, and sends the event there.
     */
    appendAgentEvent(site: Site, sessionId: string, name: string, value?: number | null): void {
      const rec = w.readRecord(sessionId);
      if (rec && rec.session.site_id === site.site_id && !isCurrent(rec)) {
        throw new VtrError('session_expired', `session ${sessionId} has ended (30 minutes without a page view, or a later page view started another); record a page view to start or join the current session`);
      }
      addCustomEvent(sessionId, site.site_id, name, value);
    },
    /** addCustomEvent for a route that answers without the session (`POST /session/{id}/event`, the agent). */
    appendCustomEvent(sessionId: string, siteId: string, name: string, value?: number | null): void {
      addCustomEvent(sessionId, siteId, name, value);
    },
    /**
     * `PUT /session/{id}/conversion`: adds the site's first conversion event unless the session has
     * one of the site's conversion events already (idempotent).
     */
    addConversion(sessionId: string, siteId: string): Session {
      return w.tx(() => {
        const rec = w.readRecord(sessionId);
        if (!rec || rec.session.site_id !== siteId) throw notFound('session');
        const site = store.sites.get(siteId);
        const events = site?.conversion_events ?? [];
        // An empty list counts no conversions: no event could convert the session.
        if (events.length === 0) {
          throw new VtrError('conflict', 'this site has no conversion events, so no event converts a session; set one with `vtr sites update <site> --conversion-events conversion`');
        }
        if (rec.session.custom_events.some((e) => events.includes(e))) return rec.session;
        return addCustomEvent(sessionId, siteId, events[0]);
      });
    },
  };
}

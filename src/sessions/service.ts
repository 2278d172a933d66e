// Sessions as the service keeps them: page views extend or start a session, custom events and
// visitor checks change it, and every change is written (with whatever the hooks add) in one
// transaction.
import type { Clock } from '../domain/clock.js';
import type { PageView, Session } from '../domain/session.js';
import type { Site } from '../domain/site.js';
import { formatMicros } from '../domain/time.js';
import { newId } from '../domain/ids.js';
import { mergeActions } from '../domain/rules.js';
import { notFound, VtrError } from '../domain/errors.js';
import { clickIdOf } from '../domain/traffic-source.js';
import { lookupIp, type CountryLookup } from '../domain/ip-intel.js';
import type { Store, SessionRecord } from '../store/index.js';
import type { EventBus } from '../events/bus.js';
import type { SessionChangeCause } from '../domain/webhooks.js';
import { entryFields, exitFields, withDerivedLevels } from './derive.js';
import { createSessionReads } from './list.js';
import { addDecimals } from '../domain/decimal.js';

/**
 * Whether a landing URL's click id is another ad click than the one that started the session: another
 * value, or the same value from another network (`fbclid=abc` after `gclid=abc`; the session's
 * `source_subtype` names its click id's parameter).
 */
function isNewClick(click: { param: string; value: string }, prev: SessionRecord): boolean {
  return click.value !== prev.click_id || click.param !== prev.session.source_subtype;
}

/** A visitor's session ends after 30 minutes without a page view. */
export const SESSION_TIMEOUT_US = 30 * 60 * 1_000_000;

export interface SessionHooks {
  /**
   * Runs inside the write transaction, so what it writes commits (or not) with the change. `cause`
   * is set when the change was a custom event (which must not trigger webhooks by itself).
   */
  inTransaction?(session: Session, previous: Session | null, cause?: SessionChangeCause): void;
  /** Runs after commit. */
  afterCommit?(session: Session, previous: Session | null): void;
}

export interface SessionServiceDeps {
  store: Store;
  clock: Clock;
  bus: EventBus;
  countryOf?: CountryLookup;
}

export interface PageViewOptions {
  /** When the page view happened (epoch µs); defaults to now. Used by create/simulate. */
  atUs?: number;
  /** Always start a new session (e.g. `vtr sessions create`). */
  newSession?: boolean;
  /** Activity without a new page (the agent's time-on-page ping): extends duration only. */
  ping?: boolean;
  /** Continue this session whatever the gap (create/simulate build one session from several views). */
  sessionId?: string;
  /** Why the session changes, when saved views should know (see changeTriggersViews). */
  cause?: SessionChangeCause;
}

export function createSessionService({ store, clock, bus, countryOf }: SessionServiceDeps) {
  const hooks: SessionHooks[] = [];
  // Inside batch(): one transaction for many changes; each touched session is published once, after it.
  let batched: Map<string, { session: Session; previous: Session | null }> | null = null;
  const tx = <T>(fn: () => T): T => (batched ? fn() : store.tx(fn));
  // Also inside batch(): the records it wrote, so a continuing page view need not read its session
  // back (a full row read costs more than the rest of a page view).
  let written: { byId: Map<string, SessionRecord>; byVisitor: Map<string, SessionRecord> } | null = null;
  const visitorKey = (siteId: string, fp: string) => `${siteId}\n${fp}`;
  const readRecord = (id: string) => written?.byId.get(id) ?? store.sessions.get(id);
  const latestRecord = (siteId: string, fp: string) => written?.byVisitor.get(visitorKey(siteId, fp)) ?? store.sessions.latestForVisitor(siteId, fp);

  function commit(rec: SessionRecord, previous: Session | null, site: Site, cause?: SessionChangeCause): Session {
    rec.session = withDerivedLevels(rec.session, site, rec.check_risks, countryOf);
    if (previous) store.sessions.update(rec);
    else store.sessions.insert(rec);
    if (written) {
      written.byId.set(rec.session.session_id, rec);
      if (rec.session.fingerprint) written.byVisitor.set(visitorKey(site.site_id, rec.session.fingerprint), rec);
    }
    for (const h of hooks) h.inTransaction?.(rec.session, previous, cause);
    return rec.session;
  }

  function after(session: Session, previous: Session | null) {
    if (batched) {
      const first = batched.get(session.session_id);
      batched.set(session.session_id, { session, previous: first ? first.previous : previous });
      return;
    }
    const type = previous ? 'session.updated' : 'session.created';
    if (bus.wants(type)) bus.publish({ type, data: session as unknown as Record<string, unknown> });
    for (const h of hooks) h.afterCommit?.(session, previous);
  }

  // A probe carries the IP of the page view that issued it: a visitor whose network changes
  // mid-session (Wi-Fi to mobile) is checked against the address the site's server now sees.
  function probeIp(viewIp: string | null | undefined, sessionIp: string | null): string | null {
    if (!viewIp || viewIp === sessionIp) return sessionIp;
    const intel = lookupIp(viewIp, countryOf);
    return intel.valid ? intel.ip : sessionIp;
  }

  /** A page view's probe id; a ping (`opts.ping`) is no page view and gets none (null). */
  function recordPageView(site: Site, pv: PageView, opts: PageViewOptions & { ping: true }): { session: Session; probe_id: null };
  function recordPageView(site: Site, pv: PageView, opts?: PageViewOptions & { ping?: false }): { session: Session; probe_id: string };
  function recordPageView(site: Site, pv: PageView, opts?: PageViewOptions): { session: Session; probe_id: string | null };
  function recordPageView(site: Site, pv: PageView, opts: PageViewOptions = {}): { session: Session; probe_id: string | null } {
    const result = tx(() => {
      const nowUs = opts.atUs ?? clock.nowMicros();
      const at = formatMicros(nowUs);
      const fingerprint = pv.fingerprint || newId.fingerprint();
      const click = clickIdOf(pv.url);
      const latest = latestRecord(site.site_id, fingerprint);
      const forced = opts.sessionId ? readRecord(opts.sessionId) : null;
      if (opts.sessionId && (!forced || forced.session.site_id !== site.site_id)) throw notFound('session');
      const prev = forced ?? (opts.newSession ? null : latest);
      const continues =
        prev !== null &&
        (forced !== null ||
          (nowUs - prev.last_seen_us < SESSION_TIMEOUT_US && nowUs >= prev.last_seen_us && !(click && isNewClick(click, prev))));

      let rec: SessionRecord;
      let previous: Session | null = null;
      if (continues && prev) {
        previous = prev.session;
        rec = {
          ...prev,
          // The 30 minutes run from the latest page view: a time-on-page ping lengthens the session's
          // duration but does not keep it open.
          last_seen_us: opts.ping ? prev.last_seen_us : nowUs,
          session: {
            ...prev.session,
            ...(opts.ping ? {} : exitFields(pv)),
            updated_at: at,
            page_views: (prev.session.page_views ?? 0) + (opts.ping ? 0 : 1),
            duration: Math.floor((nowUs - prev.first_seen_us) / 1_000_000),
            language: prev.session.language ?? pv.language ?? null,
            timezone: prev.session.timezone ?? pv.timezone ?? null,
          },
        };
      } else {
        rec = {
          first_seen_us: nowUs,
          last_seen_us: nowUs,
          click_id: click?.value ?? null,
          check_risks: [],
          seq: nowUs,
          session: {
            ...emptySession(site, newId.session(nowUs), at),
            ...entryFields(pv, countryOf),
            fingerprint,
            // Any session of this visitor recorded before this one (create/simulate may backdate views).
            returned: latest !== null,
            page_views: 1,
            duration: 0,
          } as Session,
        };
      }
      const session = commit(rec, previous, site, opts.cause);
      // A ping's answer carries no probe: one stored for it could never be used.
      if (opts.ping) return { session, previous, probe_id: null };
      const probe_id = newId.probe(nowUs);
      store.probes.insert({ probe_id, site_id: site.site_id, session_id: session.session_id, ip: probeIp(pv.ip, session.ip), created_at: at, created_us: nowUs });
      return { session, previous, probe_id };
    });
    after(result.session, result.previous);
    return { session: result.session, probe_id: result.probe_id };
  }

  /** Loads a session, lets `change` edit it, recomputes and writes it, all in one transaction. */
  function change(
    sessionId: string, siteId: string | null, edit: (rec: SessionRecord, nowUs: number, site: Site) => void, atUs?: number, cause?: SessionChangeCause,
  ): Session {
    const result = tx(() => {
      const found = readRecord(sessionId);
      const rec = found && { ...found };
      if (!rec || (siteId && rec.session.site_id !== siteId)) throw notFound('session');
      const site = store.sites.get(rec.session.site_id);
      if (!site) throw notFound('session');
      const previous = rec.session;
      const nowUs = atUs ?? clock.nowMicros();
      rec.session = { ...rec.session, updated_at: formatMicros(nowUs) };
      edit(rec, nowUs, site);
      return { session: commit(rec, previous, site, cause), previous };
    });
    after(result.session, result.previous);
    return result.session;
  }

  /**
   * Records a visitor check on the probe's session in one change: the risks it found, then the
   * actions its rules took, decided (`decide`) on the session as those risks leave it. Saved views
   * and webhooks see both at once, never the risks without the actions.
   */
  function recordCheck(sessionId: string, risks: readonly string[], decide: (withRisks: Session) => readonly string[]): Session {
    return change(sessionId, null, (rec, _nowUs, site) => {
      rec.check_risks = [...new Set([...rec.check_risks, ...risks])];
      const actions = decide(withDerivedLevels(rec.session, site, rec.check_risks, countryOf));
      rec.session = { ...rec.session, actions: mergeActions(rec.session.actions, actions) };
    });
  }

  /**
   * Appends a custom event and returns the session. `partOfCreation`: the event is part of building
   * the session (`vtr sessions create --event`), so saved views see the change as they see its page
   * views; otherwise a custom event alone never triggers a webhook (contract §3).
   */
  function addCustomEvent(
    sessionId: string, siteId: string | null, name: string, value?: number | null, opts: { atUs?: number; partOfCreation?: boolean } = {},
  ): Session {
    return change(sessionId, siteId, (rec) => {
      rec.session.custom_events = [...rec.session.custom_events, name];
      if (typeof value === 'number' && Number.isFinite(value)) {
        const sum = addDecimals(rec.session.value ?? 0, value);
        // JSON has no Infinity: the session would answer `value: null`, its value lost.
        if (!Number.isFinite(sum)) throw new VtrError('invalid_request', "value: the session's value would pass the largest number JSON carries", { field: 'value' });
        rec.session.value = sum;
      }
    }, opts.atUs, opts.partOfCreation ? undefined : 'custom_event');
  }

  /**
   * The visitor's current session: the latest of its fingerprint, with a page view within the
   * timeout. Any other has ended (contract §4), even if its page is still open.
   */
  function isCurrent(rec: SessionRecord): boolean {
    const nowUs = clock.nowMicros();
    if (nowUs - rec.last_seen_us >= SESSION_TIMEOUT_US) return false;
    const fp = rec.session.fingerprint;
    return !fp || latestRecord(rec.session.site_id, fp)?.session.session_id === rec.session.session_id;
  }

  return {
    recordPageView,
    addCustomEvent,
    /**
     * The agent's `vtr.event`: a custom event of the visitor's current session. An ended session is
     * refused (`session_expired`), so the page records a page view, which starts or joins the current
     * session, and sends the event there.
     */
    appendAgentEvent(site: Site, sessionId: string, name: string, value?: number | null): void {
      const rec = readRecord(sessionId);
      if (rec && rec.session.site_id === site.site_id && !isCurrent(rec)) {
        throw new VtrError('session_expired', `session ${sessionId} has ended (30 minutes without a page view, or a later page view started another); record a page view to start or join the current session`);
      }
      addCustomEvent(sessionId, site.site_id, name, value);
    },
    /** addCustomEvent for a route that answers without the session (`POST /session/{id}/event`, the agent). */
    appendCustomEvent(sessionId: string, siteId: string, name: string, value?: number | null): void {
      addCustomEvent(sessionId, siteId, name, value);
    },
    recordCheck,
    /**
     * `PUT /session/{id}/conversion`: adds the site's first conversion event unless the session has
     * one of the site's conversion events already (idempotent).
     */
    addConversion(sessionId: string, siteId: string): Session {
      return tx(() => {
        const rec = readRecord(sessionId);
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
    /**
     * The agent's time-on-page ping: extends the session when it is the visitor's current one (a
     * page view within the timeout, no later session) and answers whether it did; a ping never
     * starts a new session.
     */
    ping(site: Site, sessionId: string, url: string): boolean {
      const rec = store.sessions.get(sessionId);
      const live = !!rec && !!rec.session.fingerprint && isCurrent(rec);
      if (rec && live) recordPageView(site, { url, fingerprint: rec.session.fingerprint, ip: rec.session.ip }, { ping: true, sessionId });
      return live;
    },
    ...createSessionReads(store),
    get(sessionId: string, siteId?: string): Session {
      const rec = store.sessions.get(sessionId);
      if (!rec || (siteId && rec.session.site_id !== siteId)) throw notFound('session');
      return rec.session;
    },
    /**
     * Runs many changes (e.g. `sessions simulate`) in one transaction: all or nothing, hooks'
     * inTransaction writes included; bus events and afterCommit hooks run after the commit, once per
     * session with its final state.
     */
    batch<T>(fn: () => T): T {
      if (batched) return fn();
      batched = new Map();
      written = { byId: new Map(), byVisitor: new Map() };
      let result: T;
      let done: typeof batched;
      try {
        result = store.tx(fn);
      } finally {
        done = batched;
        batched = null;
        written = null;
      }
      for (const { session, previous } of done.values()) after(session, previous);
      return result;
    },
    addHooks(h: SessionHooks) {
      hooks.push(h);
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;

export function emptySession(site: Site, sessionId: string, at: string): Session {
  return {
    site_id: site.site_id, site_name: site.name, session_id: sessionId, created_at: at, updated_at: at,
    duration: null, page_views: null, entry_hostname: null, entry_path: null, exit_hostname: null, exit_path: null,
    fingerprint: null, returned: null, risk_level: null, engagement_level: null, risks: [], actions: [],
    custom_events: [], value: null, channel: null, source: null, source_subtype: null, source_id: null,
    source_medium: null, source_campaign: null, source_group: null, source_content: null, source_term: null,
    source_session_id: null, referrer: null, referrer_domain: null, ip: null, ip_network: null, isp: null,
    country_code: null, city: null, device_type: null, browser_name: null, browser_family: null,
    browser_version: null, os_family: null, os_version: null, language: null, timezone: null, user_agent: null,
  };
}

// Page views: each extends the visitor's current session or starts one, and issues a probe; the
// agent's time-on-page ping extends the current session only.
import type { Clock } from '../domain/clock.js';
import { notFound } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import { lookupIp, type CountryLookup } from '../domain/ip-intel.js';
import type { PageView, Session } from '../domain/session.js';
import type { Site } from '../domain/site.js';
import { formatMicros } from '../domain/time.js';
import { clickIdOf } from '../domain/traffic-source.js';
import type { SessionChangeCause } from '../domain/webhooks.js';
import type { SessionRecord, Store } from '../store/index.js';
import { entryFields, exitFields } from './derive.js';
import { emptySession } from './empty-session.js';
import type { SessionWrites } from './writes.js';

/** A visitor's session ends after 30 minutes without a page view. */
export const SESSION_TIMEOUT_US = 30 * 60 * 1_000_000;

export interface PageViewOptions {
  /** When the page view happened (epoch µs); defaults to now. Used by create/simulate. */
  atUs?: number;
  /** Always start a new session (e.g. `vtr sessions create`). */
  newSession?: boolean;
  /** Activity without a new page (the agent's time-on-page ping): extends duration only. */
  ping?: boolean;
  /** Continue this visitor session whatever the gap (create/simulate build one session from several views). */
  sessionId?: string;
  /** Why the session changes, when saved views should know (see changeTriggersViews). */
  cause?: SessionChangeCause;
}

export interface PageViewDeps {
  store: Store;
  clock: Clock;
  countryOf?: CountryLookup;
}

/**
 * Whether a landing URL's click id is another ad click than the one that started the session: another
 * value, or the same value from another network (`fbclid=abc` after `gclid=abc`; the session's
 * `source_subtype` names its click id's parameter).
 */
function isNewClick(click: { param: string; value: string }, prev: SessionRecord): boolean {
  return click.value !== prev.click_id || click.param !== prev.session.source_subtype;
}

export function createPageViews({ store, clock, countryOf }: PageViewDeps, w: SessionWrites) {
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
    const result = w.tx(() => {
      const nowUs = opts.atUs ?? clock.nowMicros();
      const at = formatMicros(nowUs);
      const fingerprint = pv.fingerprint || newId.fingerprint();
      const click = clickIdOf(pv.url);
      const latest = w.latestRecord(site.site_id, fingerprint);
      const forced = opts.sessionId ? w.readRecord(opts.sessionId) : null;
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
      const session = w.commit(rec, previous, site, opts.cause);
      // A ping's answer carries no probe: one stored for it could never be used.
      if (opts.ping) return { session, previous, probe_id: null };
      const probe_id = newId.probe(nowUs);
      store.probes.insert({ probe_id, site_id: site.site_id, session_id: session.session_id, ip: probeIp(pv.ip, session.ip), created_at: at, created_us: nowUs });
      return { session, previous, probe_id };
    });
    w.after(result.session, result.previous);
    return { session: result.session, probe_id: result.probe_id };
  }

  /**
   * The visitor's current session: the latest of its fingerprint, with a page view within the
   * timeout. Any other has ended (contract §4), even if its page is still open.
   */
  function isCurrent(rec: SessionRecord): boolean {
    const nowUs = clock.nowMicros();
    if (nowUs - rec.last_seen_us >= SESSION_TIMEOUT_US) return false;
    const fp = rec.session.fingerprint;
    return !fp || w.latestRecord(rec.session.site_id, fp)?.session.session_id === rec.session.session_id;
  }

  /**
   * The agent's time-on-page ping: extends the session when it is the visitor's current one (a
   * page view within the timeout, no later session) and answers whether it did; a ping never
   * starts a new session.
   */
  function ping(site: Site, sessionId: string, url: string): boolean {
    const rec = store.sessions.get(sessionId);
    const live = !!rec && !!rec.session.fingerprint && isCurrent(rec);
    if (rec && live) recordPageView(site, { url, fingerprint: rec.session.fingerprint, ip: rec.session.ip }, { ping: true, sessionId });
    return live;
  }

  return { recordPageView, isCurrent, ping };
}

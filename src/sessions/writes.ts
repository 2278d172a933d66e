// How every session change is written: in one transaction with whatever the hooks add, then
// announced after the commit; batch() runs many changes in one transaction and announces each
// touched session once, after it.
import type { Clock } from '../domain/clock.js';
import { notFound } from '../domain/errors.js';
import type { CountryLookup } from '../domain/ip-intel.js';
import type { Session } from '../domain/session.js';
import type { Site } from '../domain/site.js';
import { formatMicros } from '../domain/time.js';
import type { SessionChangeCause } from '../domain/webhooks.js';
import type { EventBus } from '../events/bus.js';
import type { SessionRecord, Store } from '../store/index.js';
import { withDerivedLevels } from './derive.js';

export interface SessionHooks {
  /**
   * Runs inside the write transaction, so what it writes commits (or not) with the change. `cause`
   * is set when the change was a custom event (which must not trigger webhooks by itself).
   */
  inTransaction?(session: Session, previous: Session | null, cause?: SessionChangeCause): void;
  /** Runs after commit. */
  afterCommit?(session: Session, previous: Session | null): void;
}

export interface SessionWriteDeps {
  store: Store;
  clock: Clock;
  bus: EventBus;
  countryOf?: CountryLookup;
}

export function createSessionWrites({ store, clock, bus, countryOf }: SessionWriteDeps) {
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

  /** Re-derives the record's fields and writes it, with the hooks' writes. Inside `tx`. */
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

  /** Announces a committed change (inside batch(): once the batch commits). */
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

  /** Loads a session, lets `edit` change it, recomputes and writes it, all in one transaction. */
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
   * Runs many changes (e.g. `sessions simulate`) in one transaction: all or nothing, hooks'
   * inTransaction writes included; bus events and afterCommit hooks run after the commit, once per
   * session with its final state.
   */
  function batch<T>(fn: () => T): T {
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
  }

  return {
    tx, readRecord, latestRecord, commit, after, change, batch,
    addHooks(h: SessionHooks) {
      hooks.push(h);
    },
  };
}

export type SessionWrites = ReturnType<typeof createSessionWrites>;

// Reading sessions back: the filtered, paged list every reader uses (the management API, the
// console, `vtr sessions list`), and the probe a page view issued.
import { notFound, VtrError, unknownCursor } from '../domain/errors.js';
import { FilterError, parseFilter } from '../domain/filter/index.js';
import type { Session } from '../domain/session.js';
import type { Store } from '../store/index.js';
import { filterToSql } from '../store/session-filter-sql.js';

export interface SessionListQuery {
  siteId?: string;
  /** A filter in the filter language (`risk_level = invalid and page_views > 1`). */
  where?: string;
  limit?: number;
  /** The last session id of the previous page. */
  before?: string;
}

/** The probe a page view issued: which site and session it proves the caller saw. */
export interface Probe {
  probe_id: string;
  site_id: string;
  session_id: string;
}

/** Parses a filter, turning its error into a 400 that carries the position. */
function compileFilter(src: string) {
  try {
    return filterToSql(parseFilter(src, { knownCountries: true }));
  } catch (err) {
    if (err instanceof FilterError) throw new VtrError('invalid_filter', err.message, { position: err.position });
    throw err;
  }
}

export function createSessionReads(store: Store) {
  return {
    /**
     * Newest first. A `before` that names no session is a 400 (not the first page again); a filter
     * that does not parse is an `invalid_filter` 400 with the position.
     */
    list(q: SessionListQuery): Session[] {
      const cursor = q.before ? store.sessions.cursor(q.before) : null;
      if (q.before && !cursor) throw unknownCursor('session', q.before);
      return store.sessions.list({
        siteId: q.siteId || undefined,
        where: q.where !== undefined ? compileFilter(q.where) : undefined,
        limit: q.limit,
        before: cursor ?? undefined,
      });
    },
    /** The session; a 404 when there is none with this id, or it is another site's. */
    get(sessionId: string, siteId?: string): Session {
      const rec = store.sessions.get(sessionId);
      if (!rec || (siteId && rec.session.site_id !== siteId)) throw notFound('session');
      return rec.session;
    },
    /** The session, or null when there is none with this id. */
    find(sessionId: string): Session | null {
      return store.sessions.get(sessionId)?.session ?? null;
    },
    probe(probeId: string): Probe | null {
      const p = store.probes.get(probeId);
      return p ? { probe_id: p.probe_id, site_id: p.site_id, session_id: p.session_id } : null;
    },
  };
}

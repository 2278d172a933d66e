// The public-API request log: the middleware hands over what it saw; masking, site lookup, the
// SQLite write and the `request.logged` event happen a moment later in a batch (one transaction
// for many requests), off the request's own path. (A worker thread for the writes was tried and
// measured slower: see docs/performance.md.)
import type { Clock } from '../domain/clock.js';
import { randomId } from '../domain/ids.js';
import { formatMicros } from '../domain/time.js';
import type { EventBus } from '../events/bus.js';
import type { Store } from '../store/index.js';
import type { RequestLogEntry } from '../store/request-log.js';
import type { RequestLogJson } from '../domain/request-log.js';
import { maskText, secretKeyOf } from './mask.js';

/** Rows kept: the newest 10,000. */
export const DEFAULT_KEEP = 10_000;
// Small steps: a prune holds the write lock, and the event loop waits.
const PRUNE_EVERY = 256;

/** Longest body text kept per request; the rest is cut with a note. */
export const MAX_LOGGED_BODY = 64 * 1024;
const MAX_QUEUE = 128;
const FLUSH_DELAY_MS = 20;

export interface RequestSeen {
  method: string;
  /** Path with its query string. */
  path: string;
  status: number;
  durationMs: number;
  /** When the request arrived, epoch µs. */
  atUs: number;
  bearer: string | null;
  requestBody: string | null;
  responseBody: string | null;
  /** The site the request was for, when the route already knows it (else looked up from its credentials). */
  siteId?: string;
}

/** A log entry as the API shows it. */
export type { RequestLogJson };

export function toLogJson(e: RequestLogEntry): RequestLogJson {
  const { seq: _seq, ...rest } = e;
  return rest;
}

/**
 * `req_` + the seq (base 36, fixed width) + randomness: unique, unguessable enough, and in insertion
 * order, so the primary-key index grows at its end instead of splitting pages at random.
 */
function requestId(seq: number): string {
  return `req_${seq.toString(36).padStart(8, '0')}${randomId(8)}`;
}

export function clip(text: string | null): string | null {
  if (text == null || text.length <= MAX_LOGGED_BODY) return text;
  return `${text.slice(0, MAX_LOGGED_BODY)}… [${text.length - MAX_LOGGED_BODY} more characters not logged]`;
}

export function createRequestLogger({ store, bus, clock, keep = DEFAULT_KEEP }: { store: Store; bus: EventBus; clock: Clock; keep?: number }) {
  let queue: RequestSeen[] = [];
  let scheduled = false;
  let seq = store.requestLog.maxSeq();
  let sincePrune = 0;
  // Requests whose response body is still being read (a cloned Response): listing waits for them.
  const reading = new Set<Promise<unknown>>();
  store.requestLog.prune(keep);

  // Per batch: a busy client sends the same token many times.
  let tokenSites = new Map<string, string | null>();
  const siteOf = (r: RequestSeen): string | null => {
    if (r.siteId !== undefined) return r.siteId;
    if (r.bearer) {
      let site = tokenSites.get(r.bearer);
      if (site === undefined) tokenSites.set(r.bearer, (site = store.sites.tokens.get(r.bearer)?.site_id ?? null));
      return site;
    }
    const secret = secretKeyOf(r.requestBody);
    return secret ? (store.sites.bySecretKey(secret)?.site_id ?? null) : null;
  };

  function flush(): void {
    scheduled = false;
    if (queue.length === 0 || !store.db.open) return;
    const batch = queue;
    queue = [];
    tokenSites = new Map();
    const rows: RequestLogEntry[] = batch.map((r, i) => ({
      request_id: requestId(seq + i + 1),
      method: r.method,
      path: maskText(r.path),
      status: r.status,
      duration_ms: Math.round(r.durationMs * 1000) / 1000,
      site_id: siteOf(r),
      request_body: r.requestBody == null ? null : maskText(clip(r.requestBody)!),
      response_body: r.responseBody == null ? null : maskText(clip(r.responseBody)!),
      created_at: formatMicros(r.atUs),
      seq: seq + i + 1,
    }));
    seq += rows.length;
    try {
      store.requestLog.insertMany(rows);
      sincePrune += rows.length;
      if (sincePrune >= PRUNE_EVERY) {
        sincePrune = 0;
        store.requestLog.prune(keep);
      }
    } catch (err) {
      // The log is diagnostics: a failed write never fails a request.
      console.error('vtr: could not write the request log:', (err as Error).message);
    }
    for (const row of rows) bus.publish({ type: 'request.logged', data: toLogJson(row) as unknown as Record<string, unknown> });
  }

  return {
    record(r: RequestSeen): void {
      queue.push(r);
      if (queue.length >= MAX_QUEUE) flush();
      else if (!scheduled) {
        scheduled = true;
        // A short delay makes big batches under load (one commit for many requests); readers of
        // the log flush first, so nothing waits on this timer.
        setTimeout(flush, FLUSH_DELAY_MS).unref();
      }
    },
    /** Records `r` once its response body text is read. */
    recordLater(r: RequestSeen, body: Promise<string | null>): void {
      const p = body.then(
        (text) => this.record({ ...r, responseBody: text }),
        () => this.record(r),
      );
      reading.add(p);
      void p.finally(() => reading.delete(p));
    },
    /** Writes what is queued now (before reading the log, and on close). */
    flush,
    /** Waits for bodies still being read, then writes everything queued. */
    async settle(): Promise<void> {
      if (reading.size) await Promise.allSettled([...reading]);
      flush();
    },
    nowUs: () => clock.nowMicros(),
    list(q: { limit?: number; before?: string; siteId?: string } = {}): RequestLogJson[] {
      flush();
      const beforeSeq = q.before ? store.requestLog.get(q.before)?.seq : undefined;
      return store.requestLog.list({ limit: q.limit, beforeSeq, siteId: q.siteId }).map(toLogJson);
    },
    get(id: string): RequestLogJson | null {
      flush();
      const e = store.requestLog.get(id);
      return e ? toLogJson(e) : null;
    },
  };
}

export type RequestLogger = ReturnType<typeof createRequestLogger>;

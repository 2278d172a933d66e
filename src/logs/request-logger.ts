// The public-API request log. A request only hands over what it saw; the entry is kept in memory
// and published at once (`request.logged`, bodies masked only if a listener reads them), and reaches
// SQLite a moment later in batches, off the request's path. Under sustained load only the newest
// `keep` entries are ever written: older ones would be pruned at once, so they are dropped unwritten.
// (A worker thread for the writes was tried and measured slower: see docs/performance.md.)
import type { Clock } from '../domain/clock.js';
import type { EventBus } from '../events/bus.js';
import type { Store } from '../store/index.js';
import type { RequestLogEntry } from '../store/request-log.js';
import type { RequestLogJson } from '../domain/request-log.js';
import { isStorageFault, unknownCursor } from '../domain/errors.js';
import { secretKeyOf } from './mask.js';
import { LoggedEntry, bodyText, randomPart } from './log-entry.js';
import { WaitingLog, type LoggedRequest, type WaitingInput } from './waiting-log.js';
import { realTimers } from '../domain/timers.js';

/** Rows kept: the newest 10,000. */
export const DEFAULT_KEEP = 10_000;
/** Longest body text kept per request; the rest is cut with a note. */
export const MAX_LOGGED_BODY = 64 * 1024;

// When entries reach SQLite: once no request has come for IDLE_MS, and under continuous traffic at
// least every MAX_AGE_MS (what a kill -9 can lose of the log; never state or webhook events), or
// sooner when the entries waiting hold more than MAX_WAITING_BYTES. Readers of the log write
// everything first, so a read never misses an entry. In a flood (more requests between two writes
// than the log keeps) every write would only replace the last one's rows, so it waits FLOOD_AGE_MS:
// writing an entry costs several times what answering its request did (a check's: ~35 µs).
const IDLE_MS = 100;
const MAX_AGE_MS = 5_000;
const FLOOD_AGE_MS = 30_000;
const MAX_WAITING_BYTES = 32 * 1024 * 1024;
// Rows per transaction while writing in the background: one event-loop turn stays short (a check's
// entry costs ~50 µs to mask and insert), and shorter while requests keep arriving: a write that
// began in a pause goes on beside the traffic that ended it.
const CHUNK = 64;
const CHUNK_UNDER_TRAFFIC = 8;
// Pruning looks up the cut-off with an OFFSET walk over `keep` index entries: not for every chunk.
const PRUNE_EVERY = 1_024;
// A reader (the API, the console) has what waits written a chunk per event-loop turn, requests
// answered in between: 10,000 entries in one go held up every request for ~300 ms in a flood.
const SETTLE_CHUNK = 256;

/** What a route saw of a request: its bodies are read only during record (copied to the waiting log). */
export interface RequestSeen extends LoggedRequest {
  bearer: string | null;
  /** The site the request was for, when the route already knows it (else looked up from its credentials). */
  siteId?: string;
}

/** A log entry as the API shows it. */
export type { RequestLogJson };

export function toLogJson(e: RequestLogEntry): RequestLogJson {
  const { seq: _seq, ...rest } = e;
  return rest;
}

// Decodes as the routes do (a leading BOM dropped); the bytes kept were valid UTF-8 when logged.
/** A body over MAX_LOGGED_BODY as clipped text; any other as it is. */
const clipped = (body: string | Uint8Array | null): string | Uint8Array | null =>
  body != null && body.length > MAX_LOGGED_BODY ? clip(bodyText(body)) : body;

export function clip(text: string | null): string | null {
  if (text == null || text.length <= MAX_LOGGED_BODY) return text;
  return `${text.slice(0, MAX_LOGGED_BODY)}… [${text.length - MAX_LOGGED_BODY} more characters not logged]`;
}

/** The timers the log writes on: the host's real ones, or a test's fake ones to step through them. */
export type LogTimers = Pick<typeof realTimers, 'setTimeout' | 'setImmediate'>;

export function createRequestLogger({ store, bus, clock, keep = DEFAULT_KEEP, timers = realTimers }: { store: Store; bus: EventBus; clock: Clock; keep?: number; timers?: LogTimers }) {
  // Oldest first; the first `due` are to be written now, the rest wait for the next idle moment.
  let waiting = new WaitingLog();
  let due = 0;
  let seq = store.requestLog.maxSeq();
  let sincePrune = 0;
  let dropped = 0;
  // The timer that notices an idle moment (or the oldest entry's age), and whether a chunk is queued.
  let timer: ReturnType<typeof setTimeout> | null = null;
  let arrived = 0;
  let age = 0;
  let chunkQueued = false;
  let recordedSinceChunk = false;
  // Requests whose response body is still being read (a cloned Response): listing waits for them.
  const reading = new Set<Promise<unknown>>();
  store.requestLog.prune(keep);

  const siteOf = (r: RequestSeen): string | null => {
    if (r.siteId !== undefined) return r.siteId;
    if (r.bearer) return store.sites.tokens.get(r.bearer)?.site_id ?? null;
    const secret = secretKeyOf(bodyText(r.requestBody));
    return secret ? (store.sites.bySecretKey(secret)?.site_id ?? null) : null;
  };

  /** Writes up to `max` due entries in one transaction. */
  function write(max: number): void {
    if (!store.db.open) {
      // Closed (the emulator stopped): nothing can be written any more, and nothing may keep retrying.
      waiting = new WaitingLog();
      due = 0;
      return;
    }
    const n = Math.min(due, max);
    if (n === 0) return;
    const rows = Array.from({ length: n }, (_, k) => new LoggedEntry(waiting.view(k)).row());
    waiting.drop(n);
    due -= n;
    try {
      store.requestLog.insertMany(rows);
      sincePrune += n;
      if (sincePrune >= PRUNE_EVERY || due === 0) {
        sincePrune = 0;
        store.requestLog.prune(keep);
      }
    } catch (err) {
      // The log is diagnostics: a failed write never fails a request. Its entries are dropped and
      // counted (`request_log_dropped` in /_vtr/health); a full disk is the fault log's line.
      dropped += n;
      if (!isStorageFault(err) && !store.faults.failed(err)) console.error('vtr: could not write the request log:', (err as Error).message);
    }
  }

  function writeChunk(): void {
    chunkQueued = false;
    write(recordedSinceChunk ? CHUNK_UNDER_TRAFFIC : CHUNK);
    recordedSinceChunk = false;
    if (due > 0) queueChunk();
  }

  // Kept referenced: an unreferenced immediate does not stop the event loop from sleeping in its
  // poll, so on an idle server each chunk waited for some other wake-up, a flood's 10,000 entries
  // took many seconds, and the next burst of requests paid for what was left (measured: 200-400 ms
  // at its start). The chain ends by itself once nothing is due.
  function queueChunk(): void {
    if (chunkQueued) return;
    chunkQueued = true;
    timers.setImmediate(writeChunk);
  }

  /** Everything waiting is to be written now (by whoever writes next). */
  function allDue(): void {
    due = waiting.length;
    age = 0;
  }

  function makeAllDue(): void {
    allDue();
    recordedSinceChunk = false;
    if (due > 0) queueChunk();
  }

  function tick(): void {
    timer = null;
    if (waiting.length === due) return;
    age += IDLE_MS;
    if (arrived === 0 || age >= (waiting.length >= keep ? FLOOD_AGE_MS : MAX_AGE_MS)) makeAllDue();
    arrived = 0;
    if (waiting.length > due) timer = timers.setTimeout(tick, IDLE_MS).unref();
  }

  /** Writes everything waiting now (before reading the log, and on close). */
  function flush(): void {
    allDue();
    while (due > 0) write(Number.MAX_SAFE_INTEGER);
  }

  return {
    /** Entries that could not be written (a full disk, a read-only database) since the start. */
    dropped: (): number => dropped,
    record(r: RequestSeen): void {
      const entry: WaitingInput = {
        seq: ++seq, rnd: randomPart(), method: r.method, path: r.path, status: r.status, durationMs: r.durationMs, atUs: r.atUs,
        siteId: siteOf(r), requestBody: clipped(r.requestBody), responseBody: clipped(r.responseBody),
      };
      waiting.push(entry);
      arrived++;
      recordedSinceChunk = true;
      // Published with the caller's bodies, not the log's copy, which is overwritten once written.
      if (bus.wants('request.logged')) bus.publish({ type: 'request.logged', data: new LoggedEntry(entry) as unknown as Record<string, unknown> });
      // More than `keep` waiting: the oldest would be pruned as soon as written, so they never are
      // (and never count towards MAX_WAITING_BYTES: a flood of checks, ~3 KB each, would otherwise
      // write all it holds about once a second, only to prune most of it).
      if (waiting.length > keep) {
        const drop = waiting.length - keep;
        waiting.drop(drop);
        due = Math.max(0, due - drop);
      }
      if (waiting.bytes > MAX_WAITING_BYTES) makeAllDue();
      else if (!timer && waiting.length > due) timer = timers.setTimeout(tick, IDLE_MS).unref();
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
    flush,
    /** Waits for bodies still being read, then writes everything waiting: a chunk per turn, the rest at once. */
    async settle(): Promise<void> {
      if (reading.size) await Promise.allSettled([...reading]);
      // Entries keep arriving meanwhile (fewer a turn than a chunk in a flood of 50 connections);
      // at most twice what waits now goes by chunks, so traffic outpacing them cannot keep it going.
      for (let left = 2 * waiting.length; left > 0 && waiting.length > SETTLE_CHUNK; left -= SETTLE_CHUNK) {
        allDue();
        write(SETTLE_CHUNK);
        await new Promise((r) => timers.setImmediate(r));
      }
      flush();
    },
    nowUs: () => clock.nowMicros(),
    /** Newest first; a `before` that names no entry (pruned, mistyped) is a 400, not the first page again. */
    list(q: { limit?: number; before?: string; siteId?: string } = {}): RequestLogJson[] {
      flush();
      const before = q.before ? store.requestLog.cursor(q.before) : null;
      if (q.before && !before) throw unknownCursor('request log entry', q.before);
      return store.requestLog.list({ limit: q.limit, before: before ?? undefined, siteId: q.siteId }).map(toLogJson);
    },
    get(id: string): RequestLogJson | null {
      flush();
      const e = store.requestLog.get(id);
      return e ? toLogJson(e) : null;
    },
  };
}

export type RequestLogger = ReturnType<typeof createRequestLogger>;

// State export/import/reset (`vtr state ...`, `/_vtr/api/state`, `serve --import/--export-on-exit`).
import { MAX_CLOCK_MS, type Clock } from '../domain/clock.js';
import type { AccessToken, Site } from '../domain/site.js';
import { formatMicros, parseTimestamp } from '../domain/time.js';
import type { SiteKeys, SiteService } from '../sites/service.js';
import type { Store } from '../store/index.js';
import { storageFaultError } from '../store/storage-faults.js';
import type { VtrError } from '../domain/errors.js';
import type { StateDocument } from '../store/state.js';
import type { StateBytes } from '../store/state-export.js';
import { readStateDocument, type ReadOptions } from './document-stream.js';

export type { StateDocument } from '../store/state.js';
export { STATE_VERSION } from '../store/state.js';

/** The default site as `emu.site` holds it: what `emu.reset()` asks a reset to keep. */
/** What replaced the state: `state.replaced`'s `reason` (a reset also clears the request log; an import leaves it). */
export type ReplacedBy = 'import' | 'reset';

export interface KeptSite {
  siteId: string;
  siteKey: string;
  secretKey: string;
  accessToken: string;
}

export interface StateServiceDeps {
  store: Store;
  clock: Clock;
  sites: SiteService;
  /** The meta key where a manual clock keeps its offset, a frozen one its "now". */
  clockKey: string;
  /**
   * Run before a reset (the request log writes what waits), so what was there before it does not
   * land after it, whoever resets (the API, `emu.reset()`).
   */
  beforeReset?: () => Promise<void>;
}

/** What an import answers (see StateService.import). */
export interface Imported {
  counts: Record<string, number>;
  /** The default site made for a file without sites, else null. */
  created: { site: Site; token: AccessToken } | null;
  clockBehindMs: number | null;
}

const msOf = (exportedAt: unknown): number | null => (typeof exportedAt === 'string' ? parseTimestamp(exportedAt) : null);

export function createStateService({ store, clock, sites, clockKey, beforeReset }: StateServiceDeps) {
  const listeners: Array<(reason: ReplacedBy) => void | Promise<void>> = [];

  /** The token's created_at when the store has it (revoked or not), else now. */
  const tokenOf = (token: string) => store.sites.tokens.get(token) ?? { token, created_at: formatMicros(clock.nowMicros()) };

  /**
   * What a reset keeps: the given keys, else the default site's id and keys and its first access
   * token (the one made with it, which `serve` and `vtr exec` give). Null without any site.
   */
  function keptKeys(keep?: KeptSite): SiteKeys | null {
    if (keep) return { site_id: keep.siteId, site_key: keep.siteKey, secret_key: keep.secretKey, token: tokenOf(keep.accessToken) };
    if (store.sites.count() === 0) return null;
    const site = sites.defaultSite();
    const token = sites.tokens.list(site.site_id)[0] ?? null;
    return { site_id: site.site_id, site_key: site.site_key, secret_key: site.secret_key, token };
  }

  /**
   * Writes where a manual or frozen clock stands after an import or reset, in its transaction (the
   * rows it replaced held the old value), and returns it; null for a system clock. `before`: the
   * clock's position before. `exportedMs`: the file's exported_at, where its clock stood (whatever
   * its mode).
   */
  function clockAfter(before: number, exportedMs: number | null): number | null {
    if (clock.mode === 'system') return null;
    // A manual or frozen clock never goes back: take a later value from the file, else keep ours.
    const kept = Number(store.meta.get(clockKey) ?? 0);
    // A file from another clock mode keeps no value under our key (or a stale one): its rows reach
    // its exported_at, and a clock behind them would put them in the future.
    const at = exportedMs == null ? 0 : Math.min(exportedMs, MAX_CLOCK_MS);
    const floor = clock.mode === 'frozen' ? at : at - clock.realNow();
    const target = Math.max(Number.isFinite(kept) ? kept : 0, floor, before);
    store.meta.set(clockKey, String(target));
    return target;
  }

  /** What an import writes after the rows, in their transaction: the default site, the clock. */
  function afterRows(before: number, exportedAt: unknown) {
    return { created: sites.bootstrap(), clockAt: clockAfter(before, msOf(exportedAt)) };
  }

  /**
   * After the commit. `clockBehindMs`: how far a system clock is behind the file's exported_at (more
   * than a second), else null. Its rows and scheduled attempts then lie in the future, and that
   * clock cannot move.
   */
  async function imported(exportedAt: unknown, r: { counts: Record<string, number>; then: ReturnType<typeof afterRows> }): Promise<Imported> {
    await replaced(r.then.clockAt, 'import');
    const exportedMs = msOf(exportedAt);
    const behind = exportedMs == null || clock.mode !== 'system' ? 0 : exportedMs - Math.floor(clock.nowMicros() / 1000);
    return { counts: r.counts, created: r.then.created, clockBehindMs: behind > 1000 ? behind : null };
  }

  /** After the commit: the clock moves (telling its listeners), then the replace's listeners run. */
  async function replaced(target: number | null, reason: ReplacedBy): Promise<void> {
    if (target != null && target > clock.position()) clock.advance(target - clock.position());
    for (const fn of listeners) await fn(reason);
  }

  return {
    /**
     * Why writes fail now (disk full, read-only file), with the error a write answers, or null while
     * they work.
     */
    storageFault(): { error: VtrError; file: string; since: number; failures: number } | null {
      const f = store.faults.current();
      return f ? { error: storageFaultError(f, true), file: f.file, since: f.since, failures: f.failures } : null;
    },
    /**
     * The contract's error for a storage fault that a read ran into (a damaged file: writes meet it
     * in the store), recorded as theirs are; null for any other error.
     */
    faultOf(error: unknown): VtrError | null {
      return store.faults.failed(error);
    },
    /** The export as bytes, for any size (`GET /_vtr/api/state`, `--export-on-exit`). */
    exportBytes(): StateBytes {
      return store.state.exportBytes(formatMicros(clock.nowMicros()));
    },
    /** Replaces everything with the document's state. A document without sites gets the default site. */
    async import(doc: unknown): Promise<Imported> {
      // Read before the document is checked (in the import's transaction): it may be anything, null too.
      const exportedAt = (doc as { exported_at?: unknown } | null)?.exported_at;
      const before = clock.position();
      // One transaction: a failure writing the default site or the clock leaves the old state whole.
      return imported(exportedAt, store.state.import(doc, () => afterRows(before, exportedAt)));
    },
    /**
     * import() of a document read as it arrives (a request body, a file), in bounded memory: its
     * rows are checked and staged one by one, then replace everything in one transaction (see
     * store/state-staging.ts). Until then the state is as it was, and every other request sees it.
     */
    async importStream(bytes: AsyncIterable<Uint8Array | string>, opts: ReadOptions = {}): Promise<Imported> {
      const staged = store.state.staged();
      try {
        await readStateDocument(bytes, staged.sink, opts);
      } catch (err) {
        staged.discard();
        throw err;
      }
      const before = clock.position();
      let exportedAt: unknown;
      const result = staged.commit((at) => afterRows(before, (exportedAt = at)));
      return imported(exportedAt, result);
    },
    /**
     * Empties every table and creates the default site as on a first start, but with the id, keys
     * and access token the default site had (or `keep`'s), so the credentials a script or a test
     * suite read before stay valid; the site's other tokens and every other site go.
     */
    async reset(keep?: KeptSite): Promise<{ site: Site; token: AccessToken }> {
      await beforeReset?.();
      const keys = keptKeys(keep);
      const before = clock.position();
      // One transaction: a failure writing the default site back leaves everything as it was.
      const { created, clockAt } = store.state.reset(() => ({ created: sites.bootstrap(keys ?? undefined)!, clockAt: clockAfter(before, null) }));
      await replaced(clockAt, 'reset');
      return created;
    },
    /** Called after an import or reset (e.g. to reschedule webhook deliveries), with which it was. */
    onReplaced(fn: (reason: ReplacedBy) => void | Promise<void>): void {
      listeners.push(fn);
    },
  };
}

export type StateService = ReturnType<typeof createStateService>;

// Caches for rows that the hot paths read on every request: sites (looked up by secret key), access
// tokens, saved views, probes and sessions. Correctness first:
// - a session's or probe's entry is deleted before any write of that row (txCache, below);
// - any write of this connection to those tables calls noteWrite(), which empties the caches; inside
//   a transaction they stay unused until it ends, so a rolled-back write is never cached;
// - a commit by any other connection (another vtr process on the same file) moves SQLite's
//   `PRAGMA data_version`, which empties them too. It is read once per turn of the event loop
//   (each read takes the database's shared lock, which costs more than the lookup it saves): a
//   request that arrives after another process's commit returned is read in a later turn.
// So a revoked token or a rotated key is refused by the very next request, as without the cache.
//
// A `txCache` is also used inside transactions (a visitor check reads its session in one): it is
// for rows whose every write deletes or replaces their entry first (sessions.ts, probes that are
// only inserted).
// What it caches inside a transaction is that transaction's view, and any rollback (of a savepoint
// or the whole transaction, store.tx) empties every cache, so nothing rolled back stays cached.
import type { Db } from './db.js';
import { addBounded } from '../domain/bounded-map.js';
import { realTimers } from '../domain/timers.js';

const MAX_ENTRIES = 1000;

export interface ReadCache<V> {
  /** The cached value, or what load() reads (cached when found and the cache may be used). */
  get(key: string, load: () => V | null): V | null;
  /** Forgets one key: its row is being written. */
  delete(key: string): void;
  /** Keeps what a row was just written as (a txCache only: a rollback empties every cache). */
  set(key: string, value: V): void;
}

export function createReadCaches(db: Db) {
  const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  const maps: Map<string, unknown>[] = [];
  let version = -1;
  // data_version was read in this turn of the event loop.
  let checked = false;
  const nextTurn = () => {
    checked = false;
  };
  // A write inside a transaction that has not ended yet: nothing may be cached until it ends.
  let dirty = false;

  const clear = () => {
    for (const m of maps) m.clear();
  };

  /** Whether the caches may be used now (emptied first when they might be stale). */
  function usable(): boolean {
    if (dirty) {
      if (db.inTransaction) return false;
      dirty = false;
      clear();
    }
    return current();
  }

  /** Empties the caches when another connection has committed since this turn's check; true. */
  function current(): boolean {
    if (!checked) {
      checked = true;
      realTimers.setImmediate(nextTurn);
      const v = dataVersion.get()!;
      if (v !== version) {
        version = v;
        clear();
      }
    }
    return true;
  }

  function cacheOf<V>(max: number, canUse: () => boolean): ReadCache<V> {
    const map = new Map<string, V>();
    maps.push(map as Map<string, unknown>);
    return {
      get(key, load) {
        if (!canUse()) return load();
        const hit = map.get(key);
        if (hit !== undefined) return hit;
        const value = load();
        if (value !== null) {
          addBounded(map, key, value, max);
        }
        return value;
      },
      delete: (key) => void map.delete(key),
      set(key, value) {
        map.delete(key);
        if (canUse()) addBounded(map, key, value, max);
      },
    };
  }

  return {
    /** SQLite's `PRAGMA data_version`: it moves when another connection (another vtr on this file) commits. */
    dataVersion: (): number => dataVersion.get()!,
    /** A cache of at most `max` entries; when full, the oldest entry goes. Unused inside a transaction that wrote. */
    cache: <V>(max = MAX_ENTRIES): ReadCache<V> => cacheOf<V>(max, usable),
    /** The same, used inside transactions too: only for rows whose every write deletes or replaces their entry first. */
    txCache: <V>(max = MAX_ENTRIES): ReadCache<V> => cacheOf<V>(max, current),
    /** A transaction or savepoint rolled back: what was cached inside it may be gone. */
    rolledBack: clear,
    /** This connection wrote (or is about to write) cached tables. */
    noteWrite(): void {
      clear();
      if (db.inTransaction) dirty = true;
    },
    /** noteWrite() after a write statement, passing its result through: `wrote(stmt.run(...))`. */
    wrote<T>(result: T): T {
      this.noteWrite();
      return result;
    },
    /** An outermost transaction committed or rolled back: what it wrote may be cached from now on. */
    transactionEnded(): void {
      if (dirty && !db.inTransaction) {
        dirty = false;
        clear();
      }
    },
  };
}

export type ReadCaches = ReturnType<typeof createReadCaches>;

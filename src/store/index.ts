import { BUSY_TIMEOUT_MS, openDb, removeMade, type Db, type Made, type SyncMode } from './db.js';
import { createFaultState, fileMoved, guardWrites, lockedOut } from './storage-faults.js';
import { startFailure } from './open-check.js';
import { createMetaStore } from './meta.js';
import { createSiteStore } from './sites.js';
import { createSessionStore } from './sessions.js';
import { createProbeStore } from './probes.js';
import { createCheckStore } from './checks.js';
import { createViewStore } from './views.js';
import { createRuleStore } from './rules.js';
import { createWebhookStore } from './webhooks.js';
import { createWebhookEventStore } from './webhook-events.js';
import { createWebhookClaimStore } from './webhook-claims.js';
import { createNotificationStore } from './notifications.js';
import { createNotificationClaimStore } from './notification-claims.js';
import { createRequestLogStore } from './request-log.js';
import { createStateStore } from './state.js';
import { createReadCaches } from './read-cache.js';
import { createLatestTime } from './latest-time.js';
import { createAfterCommit } from './after-commit.js';
import { CLI_OPTION_NAMES } from '../domain/option-names.js';

export interface StoreOptions {
  /** SQLite file path; ':memory:' keeps nothing. */
  path: string;
  /** SQLite's synchronous setting (see OpenDbOptions.sync). */
  sync?: SyncMode;
  /** Opens the file read-only (tests of a database that cannot be written). */
  readOnly?: boolean;
  /** How the one who started vtr names the database file (`--db`, startEmulator's `db`). */
  dbOption?: string;
}

/** Every table's statements, one module per table, over one connection. */
export function createStore({ path, sync, readOnly, dbOption }: StoreOptions) {
  const made: Made = { files: [], dirs: [] };
  const db: Db = openDb({ path, sync, readOnly, dbOption, made });
  // Before any statement is prepared: every writing one reports storage faults.
  const faults = createFaultState(path);
  const writes = guardWrites(db, faults, { moved: fileMoved(path), busyMs: BUSY_TIMEOUT_MS });
  // One transaction wrapper for every tx() (building one per call costs more than a small write).
  const immediate = db.transaction((fn: () => unknown) => fn()).immediate;
  const caches = createReadCaches(db);
  const commits = createAfterCommit();
  function transaction<T>(fn: () => T): T {
    const before = writes.wrote();
    try {
      const result = immediate(fn) as T; // nested: a savepoint
      // Committed something: the storage works (again), unless the file was removed under us.
      if (!db.inTransaction && writes.wrote() !== before) writes.committed();
      return result;
    } catch (error) {
      caches.rolledBack(); // better-sqlite3 rolled back before rethrowing
      // A failed COMMIT (the WAL could not grow) is a storage fault too.
      throw lockedOut(error, BUSY_TIMEOUT_MS) ?? faults.failed(error) ?? error;
    } finally {
      caches.transactionEnded(); // a no-op while an outer transaction is still open
    }
  }
  const probe = {
    put: db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('write_check', '')"),
    del: db.prepare("DELETE FROM meta WHERE key = 'write_check'"),
  };
  return {
    path,
    db,
    /** Whether writes are failing for lack of space or permission (`/_vtr/health`, the fault log). */
    faults,
    /**
     * A cheap committed write (a meta row written and taken out again): the storage works again
     * when it succeeds. The fault's error when it fails.
     */
    probeWrite(): void {
      this.tx(() => {
        probe.put.run();
        probe.del.run();
      });
    },
    meta: createMetaStore(db),
    /** The latest timestamp written in any record (wire format), null when none. */
    latestTime: createLatestTime(db),
    sites: createSiteStore(db, caches),
    sessions: createSessionStore(db, caches),
    probes: createProbeStore(db, caches),
    checks: createCheckStore(db),
    views: createViewStore(db, caches),
    rules: createRuleStore(db, caches),
    webhooks: createWebhookStore(db),
    webhookEvents: createWebhookEventStore(db),
    webhookClaims: createWebhookClaimStore(db),
    notifications: createNotificationStore(db),
    notificationClaims: createNotificationClaimStore(db),
    requestLog: createRequestLogStore(db),
    /** Whole-database export/import/reset (the only raw-row reader). */
    state: createStateStore(db, caches, (error) => lockedOut(error, BUSY_TIMEOUT_MS) ?? faults.failed(error), commits.unit),
    /** SQLite's `PRAGMA data_version`: it moves when another connection (another vtr on this file) commits. */
    commitsElsewhere: caches.dataVersion,
    /** Whether a transaction is open on the connection (its writes are not committed yet). */
    inTransaction: (): boolean => db.inTransaction,
    /**
     * Runs fn once the transaction open now commits (at once when none is), never when it rolls back;
     * the event stream's publishing, so a subscriber hears only of what was committed.
     */
    afterCommit: commits.defer,
    /** Runs fn inside the open transaction as one unit: what it deferred is dropped when it throws. */
    unit: commits.unit,
    /** Runs fn in one write transaction (BEGIN IMMEDIATE, so concurrent writers queue, never interleave). */
    tx<T>(fn: () => T): T {
      // What fn announced goes out after the COMMIT (and after the caches learnt how it ended).
      return commits.unit(() => transaction(fn));
    },
    close() {
      if (db.open) db.close();
    },
    /** An error of the start's own first writes, said as a start that cannot use the file says it. */
    startFailure: (err: unknown): unknown => startFailure(err, path, dbOption ?? CLI_OPTION_NAMES.db, BUSY_TIMEOUT_MS),
    /**
     * A start that failed (after the open): closes the database and removes the files and the
     * (empty) directories this start created, never one that was there before.
     */
    discardCreated() {
      if (db.open) db.close();
      removeMade(path, made);
    },
  };
}

export type Store = ReturnType<typeof createStore>;
export type { SessionRecord } from './sessions.js';

// Whole-database state: export every table's raw rows, import them back (replacing everything in one
// transaction), reset. The only module that reads rows generically, so a table added by a later
// migration is exported without changes here. The request log is diagnostics, not state; a webhook
// or notification claim belongs to a running process.
import type { Db } from './db.js';
import type { ReadCaches } from './read-cache.js';
import { SCHEMA_VERSION } from './migrations.js';
import { writeStateBytes, type StateBytes } from './state-export.js';
import { createImporter } from './state-import.js';
import { STATE_VERSION, type StateDocument, type StateRow, type TableInfo } from './state-rows.js';

export { STATE_VERSION, type StateDocument, type StateRow, type TableInfo };

/** The order tables appear in an export (parents first, for readers); any other table follows. */
const KNOWN_ORDER = [
  'sites', 'access_tokens', 'rules', 'sessions', 'probes', 'checks', 'saved_views', 'view_matches',
  'webhooks', 'webhook_events', 'webhook_attempts', 'notifications', 'meta',
];
const NOT_STATE = new Set(['request_log', 'webhook_claims', 'notification_claims']);

const q = (ident: string) => `"${ident.replace(/"/g, '""')}"`;

/**
 * `storageError`: the contract's error for a storage fault or a lock held elsewhere (a full disk is
 * not a fault of the file being imported), else null.
 */
/** `unit`: the store's (after-commit.ts), so what an import or reset announces waits for its COMMIT. */
export function createStateStore(db: Db, caches: ReadCaches, storageError: (error: unknown) => Error | null, unit: <T>(body: () => T) => T = (body) => body()) {
  let cached: TableInfo[] | null = null;
  const tables = (): TableInfo[] => {
    if (cached) return cached;
    const names = db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      .all()
      .map((r) => r.name)
      .filter((n) => !NOT_STATE.has(n));
    const rank = (n: string) => (KNOWN_ORDER.includes(n) ? KNOWN_ORDER.indexOf(n) : KNOWN_ORDER.length);
    names.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
    cached = names.map((name) => {
      const cols = db.prepare<[], { name: string; pk: number; type: string }>(`PRAGMA table_info(${q(name)})`).all();
      const keyColumns = cols.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name);
      const order = keyColumns.length ? keyColumns.map(q).join(', ') : 'rowid';
      return { name, columns: new Map(cols.map((c) => [c.name, c.type])), primaryKey: keyColumns, order };
    });
    return cached;
  };

  const clearAll = (extra: string[] = []) => {
    caches.noteWrite();
    for (const t of [...tables().map((t) => t.name), ...extra]) db.prepare(`DELETE FROM ${q(t)}`).run();
  };

  const importer = createImporter({ db, tables, clearAll, caches, storageError, unit, path: db.name });

  return {
    /**
     * Every state table's rows, ordered by primary key, read in one transaction (a consistent
     * snapshot), as objects: for a small database (tests); exportBytes holds any size.
     */
    export(exportedAt: string): StateDocument {
      const read = db.transaction(() => {
        const out: Record<string, StateRow[]> = {};
        for (const t of tables()) out[t.name] = db.prepare<[], StateRow>(`SELECT * FROM ${q(t.name)} ORDER BY ${t.order}`).all();
        return out;
      });
      return { vtr_state_version: STATE_VERSION, exported_at: exportedAt, schema_version: SCHEMA_VERSION, tables: read() };
    },

    /**
     * The same document as bytes, for a database of any size: what `GET /_vtr/api/state` and
     * `--export-on-exit` send (state-export.ts says why it is read whole before it is sent).
     */
    exportBytes(exportedAt: string): StateBytes {
      const head = { vtr_state_version: STATE_VERSION, exported_at: exportedAt, schema_version: SCHEMA_VERSION };
      return db.transaction(() => writeStateBytes(db, head, tables()))();
    },

    /**
     * Replaces all state with the document's rows, in one transaction; nothing changes on error.
     * `within`: more writes made in that transaction (the default site of a file without one).
     */
    import<T = void>(doc: unknown, within?: () => T): { counts: Record<string, number>; then: T } {
      return importer.importDocument(doc, within);
    },

    /** An import of a document read as it arrives (state-staging.ts); its rows go to `sink`. */
    staged: () => importer.staged(),

    /**
     * Deletes every row of every table, the request log included, then runs `within` (the first
     * start's writes) in the same transaction: an error in either leaves everything as it was.
     */
    reset<T = void>(within?: () => T): T {
      try {
        return unit(() => db.transaction(() => {
          clearAll(['request_log']);
          return within?.() as T;
        }).immediate());
      } catch (err) {
        throw storageError(err) ?? err;
      } finally {
        caches.transactionEnded();
      }
    },
  };
}
export type StateStore = ReturnType<typeof createStateStore>;

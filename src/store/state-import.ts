// Importing a state document: the one transaction that replaces all state with its rows, for a
// document already in memory and for one read as it arrives (state-staging.ts). Its checks:
// state-rows.ts.
import { CURRENT_ZONE_NAMES_SQL, RULE_SEQ_SQL } from './migrations.js';
import { VtrError } from '../domain/errors.js';
import { stageImport } from './state-staging.js';
import { bad, checkDocument, q, rowWriter, unknownTable, type ImportDeps } from './state-rows.js';

export function createImporter(deps: ImportDeps) {
  const { db } = deps;

  /** Which imported row refers to a row the file does not have, with the values it refers by. */
  const danglingReference = (b: { table: string; rowid: number | null; parent: string; fkid: number }): string => {
    const from = (db.pragma(`main.foreign_key_list(${q(b.table)})`) as Array<{ id: number; from: string }>).filter((f) => f.id === b.fkid).map((f) => f.from);
    const row = b.rowid == null ? undefined : (db.prepare(`SELECT ${from.map(q).join(', ')} FROM main.${q(b.table)} WHERE rowid = ?`).get(b.rowid) as Record<string, unknown> | undefined);
    const by = row ? ` (${from.map((c) => `${c} ${JSON.stringify(row[c])}`).join(', ')})` : '';
    return `the rows do not fit together: a row of tables.${b.table}${by} refers to no row of tables.${b.parent}`;
  };

  /**
   * Exactly one site is the default (the one `vtr exec` and the CLI use, that is never deleted last):
   * a file whose sites are none the default gets its oldest as the default (the site reads took);
   * one with several is refused, naming them.
   */
  const oneDefaultSite = () => {
    const defaults = db.prepare<[], { site_id: string }>('SELECT site_id FROM main.sites WHERE is_default = 1 ORDER BY created_at, rowid').all();
    if (defaults.length > 1) {
      throw bad(`tables.sites: ${defaults.length} sites are the default (is_default 1: ${defaults.map((d) => d.site_id).join(', ')}); mark one, the others is_default 0`);
    }
    if (defaults.length === 0) db.prepare('UPDATE main.sites SET is_default = 1 WHERE rowid = (SELECT rowid FROM main.sites ORDER BY created_at, rowid LIMIT 1)').run();
  };

  /**
   * The tables outside the state (a claim on a webhook event or a notification) whose rows go with
   * the rows they refer to (ON DELETE CASCADE), and those that go with theirs.
   */
  const dependents = (): string[] => {
    const gone = new Set(deps.tables().map((t) => t.name));
    const others = db.prepare<[], { name: string }>("SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all().map((r) => r.name).filter((n) => !gone.has(n));
    const found: string[] = [];
    for (let more = true; more; ) {
      more = false;
      for (const t of others) {
        if (gone.has(t)) continue;
        const refs = db.pragma(`main.foreign_key_list(${q(t)})`) as Array<{ table: string; on_delete: string }>;
        if (refs.some((r) => gone.has(r.table) && r.on_delete === 'CASCADE')) gone.add(t), found.push(t), (more = true);
      }
    }
    return found;
  };

  /**
   * Runs the swap with foreign keys off (a pragma that takes effect outside a transaction only):
   * each DELETE then empties its table whole instead of row by row with its cascades, and a staged
   * table is copied as it is stored, rows and index entries, without decoding a row (SQLite's
   * transfer optimisation, which foreign keys rule out). References are checked all the same, by
   * foreign_key_check before COMMIT; they are on again before anything else runs on the connection.
   */
  function withoutForeignKeys<T>(body: () => T): T {
    const on = db.pragma('foreign_keys', { simple: true }) === 1;
    if (on) db.pragma('foreign_keys = OFF');
    try {
      return body();
    } finally {
      if (on) db.pragma('foreign_keys = ON');
    }
  }

  /**
   * Replaces all state in one transaction: empties the tables, `fill` writes the rows, then what
   * every import does after them; `within` adds more writes (the default site of a file without one).
   */
  function replace<T>(fill: () => void, within?: () => T): T {
    const run = db.transaction(() => {
      // Should foreign keys still be on (a transaction around this one): checked at COMMIT, so
      // rows may come in any order.
      db.pragma('defer_foreign_keys = ON');
      deps.clearAll();
      // What a cascade would have taken with the rows just deleted.
      for (const t of dependents()) db.prepare(`DELETE FROM main.${q(t)}`).run();
      fill();
      // An export from before schema version 5 has sessions under old tz names, as its database had.
      db.exec(CURRENT_ZONE_NAMES_SQL);
      // An export from before schema version 6 has rules without seq: they follow their created_at.
      db.exec(RULE_SEQ_SQL);
      oneDefaultSite();
      const then = within?.() as T;
      // Every row, within's too. Named here: at COMMIT SQLite would only say "FOREIGN KEY constraint failed".
      const broken = db.pragma('main.foreign_key_check') as Array<{ table: string; rowid: number | null; parent: string; fkid: number }>;
      if (broken.length > 0) throw bad(danglingReference(broken[0]));
      return then;
    });
    try {
      return deps.unit(() => withoutForeignKeys(() => run.immediate()));
    } catch (err) {
      if (err instanceof VtrError) throw err;
      // BEGIN waiting for another process's lock, a COMMIT the disk cannot take.
      const storage = deps.storageError(err);
      if (storage) throw storage;
      // A deferred foreign key fails at COMMIT.
      throw bad(`the rows do not fit together: ${(err as Error).message}`);
    } finally {
      deps.caches.transactionEnded();
    }
  }

  return {
    /** A document in memory: checked as a whole, then its rows written in the transaction. */
    importDocument<T>(doc: unknown, within?: () => T): { counts: Record<string, number>; then: T } {
      const d = checkDocument(doc);
      const known = new Map(deps.tables().map((t) => [t.name, t]));
      const unknown = unknownTable(Object.keys(d.tables), known);
      if (unknown) throw unknown;
      const counts: Record<string, number> = {};
      const then = replace(() => {
        for (const [name, rows] of Object.entries(d.tables)) {
          const write = rowWriter(db, known.get(name)!);
          rows.forEach(write);
          counts[name] = rows.length;
        }
      }, within);
      return { counts, then };
    },
    /** A document read as it arrives: see the top of this file. */
    staged: () => stageImport(deps, replace),
  };
}

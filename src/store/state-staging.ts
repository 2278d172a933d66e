// A streamed state document is written, row by row as the parser yields them, into a staging
// database of its own (a scratch file with the same tables), never into the live one: the event loop
// turns between chunks, and every other request, timer and worker of this process shares the live
// connection, so a transaction held open across those turns would take their writes into it (or
// show them half an import). Meanwhile they go on against the state as it was. Once the document
// has ended and passed every check, one synchronous transaction on the live connection empties the
// tables and copies the staged rows in (INSERT … SELECT over an ATTACH), as an import from memory
// does: nothing can write between its BEGIN and COMMIT, and an error leaves everything as it was.
// That transaction holds up every request, so the copy is made to cost as little as it can: the
// staging tables have the live ones' indexes too, which SQLite's transfer needs to copy rows and
// index entries as they are stored (state-import.ts says what else it needs). Their upkeep falls
// on the row writes, spread over the document's chunks.
// Memory stays that of one chunk and one row; the staging file is removed whatever happens.
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { VtrError } from '../domain/errors.js';
import { removeDeadStaging } from './staging-leftovers.js';
import { storageFaultKind } from './storage-faults.js';
import { checkDocument, q, rowWriter, unknownTable, type ImportDeps } from './state-rows.js';

const Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;

/** What a streamed document is made of, in the order its parser meets it. */
export interface DocumentSink {
  /** The document is not a JSON object (or the body is empty). */
  notObject(): void;
  /** A top-level field other than tables (the last one given wins, as in JSON.parse). */
  field(name: string, value: unknown): void;
  /** `tables` begins: an object (its tables follow), or not one. Given again, it replaces the first. */
  tables(isObject: boolean): void;
  /** A table begins: its rows follow when it is an array. False: its rows are not wanted (skip them). */
  table(name: string, isArray: boolean): boolean;
  /** The next row of the table begun last. False: no more rows are wanted (the import has failed). */
  row(value: unknown): boolean;
}

/**
 * The staging of one streamed document. Its checks answer what an import from memory answers, in the
 * same order: the document's fields and shape first (the version may come after the tables), then a
 * table this vtr does not have, then the first bad row. So after a first error the rest is still
 * read, to find one that comes before it in that order; its rows are no longer written.
 */
export function stageImport(deps: ImportDeps, replace: <T>(fill: () => void, within?: () => T) => T) {
  const known = new Map(deps.tables().map((t) => [t.name, t]));
  const base = deps.path === ':memory:' || deps.path === '' ? tmpdir() : dirname(deps.path);
  const file = join(base, `.vtr-import-${process.pid}-${randomBytes(6).toString('hex')}.db`);
  const schema = deps.db
    .prepare<[], { sql: string }>("SELECT sql FROM main.sqlite_master WHERE sql IS NOT NULL AND type IN ('table', 'index') AND name NOT LIKE 'sqlite_%'")
    .all();
  let staging: BetterSqlite3.Database | null = null;

  const fields: Record<string, unknown> = {};
  /** What the document's shape was: null for not an object. */
  let isObject = true;
  let tables: Record<string, unknown> | null | undefined;
  const counts: Record<string, number> = {};
  let current: { name: string; write: ((row: unknown, i: number) => void) | null } | null = null;
  let unknown: VtrError | null = null;
  let rowError: VtrError | null = null;

  /** The staging file cannot grow: a fault of its volume, not of the row (nor of the live database). */
  const noRoom = (error: unknown): Error | null => {
    if (!storageFaultKind(error)) return null;
    const code = (error as { code: string }).code;
    return new VtrError('insufficient_storage', `the import's staging copy ${file} cannot be written (${code}: ${(error as Error).message}); nothing was imported. Free space on that volume`, { db: file, cause: code });
  };

  /** A write to the staging copy (its pages reach the disk at any statement, or at COMMIT): a full volume is noRoom's. */
  function guarded<T>(write: () => T): T {
    try {
      return write();
    } catch (err) {
      throw noRoom(err) ?? err;
    }
  }

  const discard = () => {
    if (staging?.open) staging.close();
    staging = null;
    rmSync(file, { force: true });
  };

  removeDeadStaging(base);
  // A copy that cannot even be made leaves no file behind.
  try {
    guarded(() => {
      staging = new Database(file);
      // A scratch copy: no journal, no fsync, no references checked (the live database checks them).
      staging.pragma('journal_mode = OFF');
      staging.pragma('synchronous = OFF');
      staging.pragma('foreign_keys = OFF');
      for (const { sql } of schema) staging.exec(sql);
      staging.exec('BEGIN');
    });
  } catch (err) {
    discard();
    throw err;
  }

  const sink: DocumentSink = {
    notObject() {
      isObject = false;
    },
    field(name, value) {
      fields[name] = value;
    },
    tables(object) {
      // Given twice, the last one is the document's (as JSON.parse reads it): the first's rows go.
      if (tables) for (const name of Object.keys(tables)) if (known.has(name)) guarded(() => staging!.exec(`DELETE FROM ${q(name)}`));
      for (const name of Object.keys(counts)) delete counts[name];
      tables = object ? {} : null;
      current = null;
      unknown = rowError = null;
    },
    table(name, isArray) {
      // Given twice, the last one is the document's: the first one's rows go.
      if (name in tables! && known.has(name)) guarded(() => staging!.exec(`DELETE FROM ${q(name)}`));
      tables![name] = isArray ? [] : null;
      if (!isArray) return false;
      counts[name] = 0;
      const info = known.get(name);
      if (!info) unknown ??= unknownTable([name], known);
      current = { name, write: info ? rowWriter(staging!, info, noRoom) : null };
      return !!info && !rowError && !unknown;
    },
    row(value) {
      if (rowError || unknown || !current?.write) return false;
      try {
        current.write(value, counts[current.name]++);
      } catch (err) {
        if (!(err instanceof VtrError) || err.code !== 'invalid_request') throw err;
        rowError = err;
        return false;
      }
      return true;
    },
  };

  return {
    sink,
    /**
     * The document has ended: its checks, then the replace. `within(exportedAt)`: more writes in the
     * same transaction, given the document's exported_at.
     */
    commit<T>(within?: (exportedAt: unknown) => T): { counts: Record<string, number>; then: T } {
      try {
        checkDocument(isObject ? { ...fields, tables } : null);
        if (unknown) throw unknown;
        if (rowError) throw rowError;
        guarded(() => staging!.exec('COMMIT'));
        staging!.close();
        deps.db.prepare('ATTACH DATABASE ? AS staging').run(file);
        try {
          const then = replace(() => {
            for (const name of Object.keys(counts)) {
              if (counts[name] === 0) continue;
              // No column list, `*`, nothing else: the shape the transfer wants (both tables were made
              // from the same SQL, so their columns are the same, in the same order).
              deps.db.prepare(`INSERT INTO main.${q(name)} SELECT * FROM staging.${q(name)}`).run();
            }
          }, () => within?.(fields.exported_at) as T);
          return { counts: { ...counts }, then };
        } finally {
          deps.db.prepare('DETACH DATABASE staging').run();
        }
      } finally {
        discard();
      }
    },
    discard,
  };
}
export type StagedImport = ReturnType<typeof stageImport>;


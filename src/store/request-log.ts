import type { RequestLogJson } from '../domain/request-log.js';
import type { Db } from './db.js';
import { whereOf } from './where.js';
import { NEWEST_FIRST, olderThan, type PageCursor } from './paging.js';

/** A request log row: the entry plus its insertion order. */
export interface RequestLogEntry extends RequestLogJson {
  seq: number;
}

export function createRequestLogStore(db: Db) {
  const insert = db.prepare(
    'INSERT INTO request_log (request_id, method, path, status, duration_ms, site_id, request_body, response_body, created_at, seq) ' +
      'VALUES (@request_id, @method, @path, @status, @duration_ms, @site_id, @request_body, @response_body, @created_at, @seq)',
  );
  const get = db.prepare<[string], RequestLogEntry>('SELECT * FROM request_log WHERE request_id = ?');
  const cursorOf = db.prepare<[string], PageCursor>('SELECT seq, rowid FROM request_log WHERE request_id = ?');
  const maxSeq = db.prepare<[], { s: number | null }>('SELECT max(seq) AS s FROM request_log');
  // The seq of the row just past the newest `keep`: everything at or below it goes (uses the seq index).
  const cutoff = db.prepare<[number], { seq: number }>('SELECT seq FROM request_log ORDER BY seq DESC LIMIT 1 OFFSET ?');
  const pruneTo = db.prepare('DELETE FROM request_log WHERE seq <= ?');
  const insertMany = db.transaction((rows: RequestLogEntry[]) => {
    for (const r of rows) insert.run(r);
  });
  return {
    /** Writes a batch in one transaction (one WAL commit for many requests). */
    insertMany: (rows: RequestLogEntry[]) => insertMany.immediate(rows),
    get: (id: string) => get.get(id) ?? null,
    maxSeq: () => maxSeq.get()?.s ?? 0,
    /** Where a page ending at this entry ends (for `list({ before })`), or null for an unknown id. */
    cursor: (id: string): PageCursor | null => cursorOf.get(id) ?? null,
    /** Newest first; `before` pages on. */
    list(q: { limit?: number; before?: PageCursor; siteId?: string } = {}): RequestLogEntry[] {
      const { where, params } = whereOf([q.siteId && ['site_id = ?', q.siteId], olderThan(q.before)]);
      const sql = `SELECT * FROM request_log ${where} ${NEWEST_FIRST} LIMIT ?`;
      return db.prepare<unknown[], RequestLogEntry>(sql).all(...params, Math.max(1, Math.min(q.limit ?? 100, 10_000)));
    },
    /** Keeps the newest `keep` rows; returns how many went. */
    prune(keep: number): number {
      const row = cutoff.get(keep);
      return row ? pruneTo.run(row.seq).changes : 0;
    },
    clear: () => void db.prepare('DELETE FROM request_log').run(),
  };
}
export type RequestLogStore = ReturnType<typeof createRequestLogStore>;

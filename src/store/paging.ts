// Newest-first lists (sessions, checks, the request log, notifications) page by `seq`, which is not
// unique: sessions and checks take the creation time in µs, notifications too, and the request log's
// is a per-process counter, so two `vtr serve` on one file (or one process writing two rows in one
// µs) can give two rows the same seq. SQLite's rowid breaks the tie: it is unique, and it is the
// implicit last column of every index, so `ORDER BY seq DESC, rowid DESC` is still read off the
// (seq) / (site_id, seq) indexes, and a cursor row's (seq, rowid) bounds the next page exactly.
import type { Clause } from './where.js';

/** Where a page ends: the (seq, rowid) of the row named by `?before=<id>`. */
export interface PageCursor {
  seq: number;
  rowid: number;
}

/** The order of every paged list: newest first, ties by insertion (rowid). */
export const NEWEST_FIRST = 'ORDER BY seq DESC, rowid DESC';

/** Rows after `c` in NEWEST_FIRST order (SQLite uses the seq index for the row value's `seq <= ?`). */
export const olderThan = (c: PageCursor | null | undefined): Clause | null =>
  c ? ['(seq, rowid) < (?, ?)', c.seq, c.rowid] : null;

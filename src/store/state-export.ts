// The state export as bytes. A database of a million sessions is a document of gigabytes: as row
// objects, or as one string (V8 stops near 512 MB), it cannot be held. Each row is written as it is
// read (`iterate`, raw arrays), into chunks of bytes kept off the JS heap.
//
// Why the chunks are all read before any is sent: the rows must be one point in time, so they are
// read in one transaction. The store has one connection, shared with every request: a transaction
// held open across the sending (waits for a slow reader) would take in other requests' writes, and
// while a statement iterates, the connection runs no other. A second connection would need a file
// (`:memory:` has none). So the read is synchronous, as the former `.all()` was, and memory is the
// file's size off the heap for as long as it is being sent; each chunk is let go once sent.
import type { Db } from './db.js';

/** Bytes per chunk: large enough that per-chunk costs vanish, small enough to leave no peaks. */
const CHUNK_CHARS = 64 * 1024;

export interface ExportHead {
  vtr_state_version: number;
  exported_at: string;
  schema_version: number;
}

export interface StateBytes {
  /** Rows per table, in the document's order. */
  counts: Record<string, number>;
  /** The whole document's length in bytes. */
  byteLength: number;
  /** The document's bytes, each chunk given once and then let go (iterate it once). */
  chunks(): Generator<Buffer>;
}

const quote = (v: unknown) => JSON.stringify(v);
/** A value as JSON.stringify(doc, null, 2) writes it at a row's depth (an object only for a BLOB). */
const value = (v: unknown) => (v !== null && typeof v === 'object' ? JSON.stringify(v, null, 2).replaceAll('\n', '\n        ') : JSON.stringify(v));

/**
 * The document `JSON.stringify(doc, null, 2)` and a final newline give, byte for byte (the format
 * state files always had). `tables`: name and ORDER BY of each table, in the document's order.
 * Runs inside the caller's transaction.
 */
export function writeStateBytes(db: Db, head: ExportHead, tables: Array<{ name: string; order: string }>): StateBytes {
  const out: Buffer[] = [];
  let byteLength = 0;
  let text = '';
  const flush = () => {
    const b = Buffer.from(text, 'utf8');
    out.push(b);
    byteLength += b.length;
    text = '';
  };
  const push = (s: string) => {
    text += s;
    if (text.length >= CHUNK_CHARS) flush();
  };
  push(`{\n  "vtr_state_version": ${quote(head.vtr_state_version)},\n  "exported_at": ${quote(head.exported_at)},\n  "schema_version": ${quote(head.schema_version)},\n  "tables": {`);
  const counts: Record<string, number> = {};
  tables.forEach((t, i) => {
    push(`${i ? ',' : ''}\n    ${quote(t.name)}: [`);
    const stmt = db.prepare(`SELECT * FROM "${t.name.replace(/"/g, '""')}" ORDER BY ${t.order}`).raw(true);
    const keys = stmt.columns().map((c, k) => `${k ? ',' : ''}\n        ${quote(c.name)}: `);
    let n = 0;
    for (const row of stmt.iterate() as IterableIterator<unknown[]>) {
      let s = n ? ',\n      {' : '\n      {';
      for (let k = 0; k < row.length; k++) s += keys[k] + value(row[k]);
      push(`${s}\n      }`);
      n++;
    }
    push(n ? '\n    ]' : ']');
    counts[t.name] = n;
  });
  push(tables.length ? '\n  }\n}\n' : '}\n}\n');
  flush();
  return {
    counts,
    byteLength,
    *chunks() {
      for (let i = 0; i < out.length; i++) {
        const chunk = out[i];
        out[i] = EMPTY;
        yield chunk;
      }
    },
  };
}

const EMPTY = Buffer.alloc(0);

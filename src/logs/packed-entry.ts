// A request-log entry packed into one byte view while it waits for its batch (see
// request-logger.ts). Under a flood the log holds up to 12,500 waiting entries, each living a second
// or more: as plain objects (the entry, what the request saw, its path, its two bodies' views) every
// one of them was copied by several young-generation GCs and then promoted. Packed, an entry is one
// small view on a shared 1 MiB slab, and its bytes are off the JS heap.
//
// Layout: seq, atUs, durationMs (f64); status (i32); flags (u8: which body is text); then the byte
// lengths of method, path, siteId, request body and response body (i32, -1 for null), then those
// bytes. Strings are UTF-16 (exact for any JS string); a body given as bytes is kept as those bytes.
import type { RequestSeen } from './request-logger.js';

const HEADER = 52;
const REQUEST_TEXT = 1;
const RESPONSE_TEXT = 2;
const SLAB = 1 << 20;
/** Entries bigger than this get a buffer of their own instead of a slab's room. */
const OWN_BUFFER = SLAB >> 3;

export interface Unpacked {
  seq: number;
  siteId: string | null;
  r: RequestSeen;
}

const textBytes = (s: string | null | undefined): number => (s == null ? 0 : s.length * 2);
const bodyBytes = (b: string | Uint8Array | null): number => (b == null ? 0 : typeof b === 'string' ? b.length * 2 : b.length);

/** Packs entries into shared slabs; a slab is freed once none of its entries is referenced. */
export function createPacker() {
  let slab: ArrayBuffer = new ArrayBuffer(0);
  let used = 0;

  function room(n: number): Buffer {
    if (n > OWN_BUFFER) return Buffer.allocUnsafeSlow(n);
    if (used + n > slab.byteLength) {
      slab = new ArrayBuffer(SLAB);
      used = 0;
    }
    const view = Buffer.from(slab, used, n);
    used += (n + 7) & ~7; // the next header's f64s stay aligned
    return view;
  }

  return function pack(seq: number, r: RequestSeen, siteId: string | null): Buffer {
    const size = HEADER + textBytes(r.method) + textBytes(r.path) + textBytes(siteId) + bodyBytes(r.requestBody) + bodyBytes(r.responseBody);
    const b = room(size);
    b.writeDoubleLE(seq, 0);
    b.writeDoubleLE(r.atUs, 8);
    b.writeDoubleLE(r.durationMs, 16);
    b.writeInt32LE(r.status, 24);
    b[28] = (typeof r.requestBody === 'string' ? REQUEST_TEXT : 0) | (typeof r.responseBody === 'string' ? RESPONSE_TEXT : 0);
    let at = HEADER;
    const put = (slot: number, v: string | Uint8Array | null): void => {
      if (v == null) {
        b.writeInt32LE(-1, slot);
        return;
      }
      const n = typeof v === 'string' ? b.write(v, at, 'utf16le') : (b.set(v, at), v.length);
      b.writeInt32LE(n, slot);
      at += n;
    };
    put(32, r.method);
    put(36, r.path);
    put(40, siteId);
    put(44, r.requestBody);
    put(48, r.responseBody);
    return b;
  };
}

export function unpack(b: Buffer): Unpacked {
  const flags = b[28];
  let at = HEADER;
  const take = (slot: number, text: boolean): string | Uint8Array | null => {
    const n = b.readInt32LE(slot);
    if (n < 0) return null;
    const start = at;
    at += n;
    return text ? b.toString('utf16le', start, at) : b.subarray(start, at);
  };
  const method = take(32, true) as string;
  const path = take(36, true) as string;
  const siteId = take(40, true) as string | null;
  const requestBody = take(44, (flags & REQUEST_TEXT) !== 0);
  const responseBody = take(48, (flags & RESPONSE_TEXT) !== 0);
  return {
    seq: b.readDoubleLE(0),
    siteId,
    r: { method, path, status: b.readInt32LE(24), durationMs: b.readDoubleLE(16), atUs: b.readDoubleLE(8), bearer: null, requestBody, responseBody },
  };
}

// The request-log entries waiting in memory for their batch (see request-logger.ts), oldest first,
// kept off the JS heap: their numbers in typed arrays, their text (method, path, bodies) as UTF-8
// on slabs that are used again once their entries are gone. Entries made of JS objects lived just
// long enough under a flood to be promoted, then died in the old generation, and a new slab for
// each megabyte brought a mark-compact for their memory: either doubled the GC's pauses
// (docs/performance.md).

/** What a request's entry says of it, as a route hands it to the request log. */
export interface LoggedRequest {
  method: string;
  /** Path with its query string. */
  path: string;
  status: number;
  durationMs: number;
  /** When the request arrived, epoch µs. */
  atUs: number;
  /** The body's text, or its UTF-8 bytes (copied here when the entry is pushed). */
  requestBody: string | Uint8Array | null;
  /** The answer's text, or the UTF-8 bytes that were sent (likewise). */
  responseBody: string | Uint8Array | null;
}

/** What the logger hands over: the request, numbered, with its site. */
export interface WaitingInput extends LoggedRequest {
  seq: number;
  /** The random part of the entry's id, a number below 62^8 (see log-entry.ts). */
  rnd: number;
  siteId: string | null;
}

/** An entry read back: its bodies are views of its slab, valid only until the log changes. */
export interface WaitingView extends Omit<WaitingInput, 'requestBody' | 'responseBody'> {
  requestBody: Uint8Array | null;
  responseBody: Uint8Array | null;
}

const SLAB_BYTES = 1 << 20;
/** Emptied slabs kept for reuse (a write or a state reset frees many at once, then the log refills). */
const SPARE_SLABS = 8;
const FIRST_SLOTS = 1024;
/** What an entry costs besides its text, counted in `bytes`: its share of the typed arrays and the site ids. */
const ENTRY_OVERHEAD = 72;
// The byte lengths kept per entry, in this order; -1 is a null body.
const METHOD = 0;
const PATH = 1;
const REQUEST = 2;
const RESPONSE = 3;
const TEXTS = 4;

const byteLength = (t: string | Uint8Array | null): number => (t == null ? -1 : typeof t === 'string' ? Buffer.byteLength(t) : t.length);

export class WaitingLog {
  private slots = 0;
  private head = 0;
  private count = 0;
  private seq = new Float64Array(0);
  private rnd = new Float64Array(0);
  private atUs = new Float64Array(0);
  private duration = new Float64Array(0);
  private status = new Uint16Array(0);
  private slabOf = new Float64Array(0);
  private offset = new Uint32Array(0);
  private lengths = new Int32Array(0);
  private siteIds: (string | null)[] = [];
  // Slabs still holding a waiting entry's text, oldest first, and the number of the first one.
  private slabs: Buffer[] = [];
  private spare: Buffer[] = [];
  private firstSlab = 0;
  private used = SLAB_BYTES;
  /** Roughly what the waiting entries hold (their text, plus a fixed amount each). */
  bytes = 0;

  get length(): number {
    return this.count;
  }

  push(e: WaitingInput): void {
    if (this.count === this.slots) this.grow();
    const i = (this.head + this.count) % this.slots;
    this.count++;
    const l = i * TEXTS;
    const lens = this.lengths;
    lens[l + METHOD] = byteLength(e.method);
    lens[l + PATH] = byteLength(e.path);
    lens[l + REQUEST] = byteLength(e.requestBody);
    lens[l + RESPONSE] = byteLength(e.responseBody);
    const size = this.textBytes(i);
    const slab = this.room(size);
    this.slabOf[i] = this.firstSlab + this.slabs.length - 1;
    let at = (this.offset[i] = this.used);
    this.used += size;
    at = put(slab, at, e.method);
    at = put(slab, at, e.path);
    at = put(slab, at, e.requestBody);
    put(slab, at, e.responseBody);
    this.seq[i] = e.seq;
    this.rnd[i] = e.rnd;
    this.atUs[i] = e.atUs;
    this.duration[i] = e.durationMs;
    this.status[i] = e.status;
    this.siteIds[i] = e.siteId;
    this.bytes += size + ENTRY_OVERHEAD;
  }

  /** The k-th waiting entry, oldest first. */
  view(k: number): WaitingView {
    const i = (this.head + k) % this.slots;
    const slab = this.slabs[this.slabOf[i] - this.firstSlab];
    const lens = this.lengths;
    const l = i * TEXTS;
    let at = this.offset[i];
    const text = (n: number): string => slab.toString('utf8', at, (at += n));
    const bytes = (n: number): Uint8Array | null => (n < 0 ? null : slab.subarray(at, (at += n)));
    const method = text(lens[l + METHOD]);
    const path = text(lens[l + PATH]);
    const requestBody = bytes(lens[l + REQUEST]);
    const responseBody = bytes(lens[l + RESPONSE]);
    return {
      seq: this.seq[i], rnd: this.rnd[i], atUs: this.atUs[i], durationMs: this.duration[i], status: this.status[i], siteId: this.siteIds[i],
      method, path, requestBody, responseBody,
    };
  }

  /** Forgets the oldest n entries; a slab goes once no waiting entry is on it. */
  drop(n: number): void {
    n = Math.min(n, this.count);
    for (let k = 0; k < n; k++) {
      const i = (this.head + k) % this.slots;
      this.bytes -= this.textBytes(i) + ENTRY_OVERHEAD;
      this.siteIds[i] = null;
    }
    this.head = this.count === n ? 0 : (this.head + n) % this.slots;
    this.count -= n;
    // The slab being filled stays; older ones go once the oldest entry is past them.
    const oldest = this.count > 0 ? this.slabOf[this.head] : this.firstSlab + this.slabs.length - 1;
    while (this.slabs.length > 1 && this.firstSlab < oldest) {
      const slab = this.slabs.shift()!;
      this.firstSlab++;
      if (slab.length === SLAB_BYTES && this.spare.length < SPARE_SLABS) this.spare.push(slab);
    }
  }

  /** The bytes of slot i's text on its slab (a null body counts none). */
  private textBytes(i: number): number {
    let sum = 0;
    for (let t = i * TEXTS; t < i * TEXTS + TEXTS; t++) sum += Math.max(0, this.lengths[t]);
    return sum;
  }

  /** The slab to put `size` more bytes on (a new one when the current one is full). */
  private room(size: number): Buffer {
    if (this.used + size > SLAB_BYTES || this.slabs.length === 0) {
      const spare = size <= SLAB_BYTES ? this.spare.pop() : undefined;
      this.slabs.push(spare ?? Buffer.allocUnsafeSlow(Math.max(SLAB_BYTES, size)));
      this.used = 0;
    }
    return this.slabs[this.slabs.length - 1];
  }

  /** Twice the slots (called only when all are taken), the entries copied oldest first. */
  private grow(): void {
    const slots = Math.max(FIRST_SLOTS, this.slots * 2);
    const h = this.head;
    const unrolled = <A extends Float64Array | Uint16Array | Uint32Array | Int32Array>(from: A, to: A, per = 1): A => {
      to.set(from.subarray(h * per));
      to.set(from.subarray(0, h * per), from.length - h * per);
      return to;
    };
    this.seq = unrolled(this.seq, new Float64Array(slots));
    this.rnd = unrolled(this.rnd, new Float64Array(slots));
    this.atUs = unrolled(this.atUs, new Float64Array(slots));
    this.duration = unrolled(this.duration, new Float64Array(slots));
    this.status = unrolled(this.status, new Uint16Array(slots));
    this.slabOf = unrolled(this.slabOf, new Float64Array(slots));
    this.offset = unrolled(this.offset, new Uint32Array(slots));
    this.lengths = unrolled(this.lengths, new Int32Array(slots * TEXTS), TEXTS);
    this.siteIds = [...this.siteIds.slice(h), ...this.siteIds.slice(0, h), ...new Array<null>(slots - this.slots).fill(null)];
    this.slots = slots;
    this.head = 0;
  }
}

/** Writes text or bytes at `at`; answers where the next one goes. */
function put(slab: Buffer, at: number, t: string | Uint8Array | null): number {
  if (t == null) return at;
  if (typeof t === 'string') return at + slab.write(t, at, 'utf8');
  slab.set(t, at);
  return at + t.length;
}

// Where the request log keeps the bodies of waiting entries: UTF-8 bytes in views on shared 1 MiB
// slabs. Bytes are off the JS heap, so a flood's waiting entries (up to 12,500, each living a second
// or more) do not make the young-generation GC copy their text; and one slab per ~400 answers
// replaces Buffer.from's 8 KiB pool, which a 2.3 KB answer used up every third request, each new
// pool an ArrayBuffer for the GC to track. A slab is freed once no view on it is left; nothing in
// one is ever overwritten.

const SLAB = 1 << 20;
/** Bodies bigger than this get a buffer of their own. */
const OWN = SLAB >> 4;

export function createByteSlab() {
  let slab = Buffer.allocUnsafeSlow(0);
  let used = 0;

  /** Makes sure the current slab has n bytes free. */
  function ensure(n: number): void {
    if (used + n > slab.length) {
      slab = Buffer.allocUnsafeSlow(SLAB);
      used = 0;
    }
  }

  /** `body` as UTF-8 bytes of its own (a copy of bytes, which may share a socket's read buffer). */
  return function keep(body: string | Uint8Array | null): Uint8Array | null {
    if (body == null) return null;
    if (typeof body !== 'string') {
      if (body.length > OWN) return Buffer.from(body);
      ensure(body.length);
      slab.set(body, used);
    } else {
      if (body.length * 3 > OWN) return Buffer.from(body); // at most 3 bytes per UTF-16 unit
      ensure(body.length * 3);
      const n = slab.write(body, used, 'utf8');
      const view = slab.subarray(used, used + n);
      used += n;
      return view;
    }
    const view = slab.subarray(used, used + body.length);
    used += body.length;
    return view;
  };
}

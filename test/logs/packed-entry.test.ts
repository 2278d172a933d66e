import { describe, expect, it } from 'vitest';
import { createPacker, unpack } from '../../src/logs/packed-entry.js';
import type { RequestSeen } from '../../src/logs/request-logger.js';

const seen = (over: Partial<RequestSeen> = {}): RequestSeen => ({
  method: 'POST', path: '/api/v1/event', status: 200, durationMs: 0.123456, atUs: 1_763_700_000_123_456,
  bearer: 'tok_dropped', requestBody: Buffer.from('{"ip":"192.0.2.1"}'), responseBody: '{"ok":true}', ...over,
});
const bytes = (s: string) => new Uint8Array(Buffer.from(s));
const text = (b: unknown) => Buffer.from(b as Uint8Array).toString();

describe('packed entry', () => {
  it('pack: unpacks to what was packed, text as text and bytes as the same bytes', () => {
    const pack = createPacker();
    const r = seen();
    const u = unpack(pack(42, r, 'site_1'));
    expect(u.seq).toBe(42);
    expect(u.siteId).toBe('site_1');
    expect({ ...u.r, requestBody: null }).toEqual({ ...r, bearer: null, requestBody: null });
    expect(u.r.requestBody).toBeInstanceOf(Uint8Array);
    expect(text(u.r.requestBody)).toBe('{"ip":"192.0.2.1"}');
    expect(u.r.responseBody).toBe('{"ok":true}');
  });

  it('pack: nulls, empty strings and any JS string (astral, lone surrogates) come back exactly', () => {
    const pack = createPacker();
    const odd = 'é😀\uD800x\uDFFF';
    const u = unpack(pack(1, seen({ path: `/p/${odd}`, requestBody: null, responseBody: odd }), null));
    expect(u.siteId).toBeNull();
    expect(u.r.requestBody).toBeNull();
    expect(u.r.responseBody).toBe(odd);
    expect(u.r.path).toBe(`/p/${odd}`);
    const empty = unpack(pack(2, seen({ requestBody: '', responseBody: new Uint8Array(0) }), '')).r;
    expect(empty.requestBody).toBe('');
    expect(empty.responseBody).toBeInstanceOf(Uint8Array);
    expect(empty.responseBody?.length).toBe(0);
    expect(unpack(pack(3, seen(), '')).siteId).toBe('');
  });

  it('pack: entries stay intact when later ones fill new slabs, and a large one gets its own buffer', () => {
    const pack = createPacker();
    const packed = Array.from({ length: 2_000 }, (_, i) => pack(i, seen({ status: 200 + (i % 300), responseBody: bytes(`{"n":${i},"pad":"${'x'.repeat(i % 977)}"}`) }), `site_${i}`));
    const big = pack(9_999, seen({ responseBody: 'y'.repeat(300_000) }), 's');
    packed.forEach((b, i) => {
      const u = unpack(b);
      expect(u.seq).toBe(i);
      expect(u.siteId).toBe(`site_${i}`);
      expect(u.r.status).toBe(200 + (i % 300));
      expect(text(u.r.responseBody)).toBe(`{"n":${i},"pad":"${'x'.repeat(i % 977)}"}`);
    });
    expect(new Set(packed.map((b) => b.buffer)).size).toBeGreaterThan(1);
    expect(unpack(big).r.responseBody).toBe('y'.repeat(300_000));
    expect(big.buffer.byteLength).toBe(big.length);
  });
});

// A JSON request body read as it arrives, for a body too large to hold (a state import): its chunks,
// decompressed on the way when it has a Content-Encoding, never more than `limit` bytes either way.
// The checks readJson makes before reading (415, a declared length over the limit) are made at once.
import { Readable, pipeline } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate, createInflateRaw } from 'node:zlib';
import type { Transform } from 'node:stream';
import type { Context } from 'hono';
import { VtrError } from '../domain/errors.js';
import { refuseNonJson, tooLarge, unreadable } from './http.js';

const INFLATERS: Record<string, (first: Uint8Array) => Transform> = {
  gzip: () => createGunzip(),
  'x-gzip': () => createGunzip(),
  // "deflate" is zlib-wrapped by the standard; some clients send the raw stream under that name.
  deflate: (b) => ((b[0] & 0x0f) === 8 && ((b[0] << 8) | b[1]) % 31 === 0 ? createInflate() : createInflateRaw()),
  br: () => createBrotliDecompress(),
};

/** The body's chunks (none for an empty body). Reading them throws the contract's errors. */
export function readBodyStream(c: Context, limit: number, tooLargeMessage: string): AsyncIterable<Uint8Array> {
  refuseNonJson(c.req.header('content-type'));
  const declared = c.req.header('content-length');
  if (declared !== undefined && Number(declared) > limit) throw tooLarge(c, tooLargeMessage, Number(declared));
  const coding = (c.req.header('content-encoding') ?? '').trim().toLowerCase();
  const inflater = coding === '' || coding === 'identity' ? null : INFLATERS[coding];
  if (inflater === undefined) {
    throw new VtrError('unsupported_media_type', `Content-Encoding ${coding.slice(0, 100)} is not supported; send the body uncompressed, or as gzip, deflate or br`);
  }
  let body: ReadableStream<Uint8Array> | null;
  try {
    body = c.req.raw.body;
  } catch {
    throw unreadable();
  }
  const over = () => tooLarge(c, tooLargeMessage);
  const raw = body ? bounded(chunksOf(body), limit, over) : empty();
  return inflater ? bounded(inflated(raw, inflater, coding), limit, over) : raw;
}

async function* empty(): AsyncGenerator<Uint8Array> {}

async function* chunksOf(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  try {
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch {
        throw unreadable();
      }
      if (chunk.done) return;
      yield chunk.value;
    }
  } finally {
    // Left before its end (an error, a stop): the rest is not wanted.
    reader.cancel().catch(() => {});
  }
}

async function* bounded(chunks: AsyncIterable<Uint8Array>, limit: number, over: () => VtrError): AsyncGenerator<Uint8Array> {
  let size = 0;
  for await (const chunk of chunks) {
    size += chunk.byteLength;
    if (size > limit) throw over();
    yield chunk;
  }
}

async function* inflated(chunks: AsyncGenerator<Uint8Array>, inflater: (first: Uint8Array) => Transform, coding: string): AsyncGenerator<Uint8Array> {
  const first = await chunks.next();
  if (first.done) return;
  const source = Readable.from((async function* () {
    yield first.value;
    yield* chunks;
  })());
  const zlib = inflater(first.value);
  // An error of the source (413, a dropped connection) ends the inflater with it.
  pipeline(source, zlib, () => undefined);
  try {
    for await (const chunk of zlib) yield chunk as Uint8Array;
  } catch (err) {
    if (err instanceof VtrError) throw err;
    throw new VtrError('invalid_request', `the body is not valid ${coding} data, as its Content-Encoding says it is`);
  } finally {
    source.destroy();
  }
}

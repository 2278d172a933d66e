// A JSON request body read as it arrives, for a body too large to hold (a state import): its chunks,
// decompressed on the way when it has a Content-Encoding, never more than `limit` bytes either way.
// The checks readJson makes before reading (415, a declared length over the limit) are made at once.
import { Readable, pipeline } from 'node:stream';
import type { Transform } from 'node:stream';
import type { Context } from 'hono';
import { VtrError } from '../domain/errors.js';
import { refuseNonJson } from './http.js';
import { inflaterFor } from './body-coding.js';
import { bodyChunks, bounded, tooLarge } from './body-chunks.js';

/** The body's chunks (none for an empty body). Reading them throws the contract's errors. */
export function readBodyStream(c: Context, limit: number, tooLargeMessage: string): AsyncIterable<Uint8Array> {
  refuseNonJson(c.req.header('content-type'));
  const declared = c.req.header('content-length');
  if (declared !== undefined && Number(declared) > limit) throw tooLarge(c, tooLargeMessage, Number(declared));
  const inflater = inflaterFor(c.req.header('content-encoding'));
  const over = () => tooLarge(c, tooLargeMessage);
  const raw = bodyChunks(c, limit, over);
  return inflater ? bounded(inflated(raw, inflater.make, inflater.name), limit, over) : raw;
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

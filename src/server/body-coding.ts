// Request bodies sent compressed (Content-Encoding), as some HTTP clients of hosted APIs send them.
// Decoded whole, never past the body limit: a small body that inflates beyond it is a 413, like a
// large one (a "zip bomb" costs at most the limit).
// A body too large to hold (a state import) is decoded as it arrives instead (`inflaterFor`).
import type { Transform } from 'node:stream';
import {
  brotliDecompressSync, createBrotliDecompress, createGunzip, createInflate, createInflateRaw, gunzipSync, inflateRawSync, inflateSync,
} from 'node:zlib';
import { VtrError } from '../domain/errors.js';

type Decoder = (bytes: Uint8Array, max: number) => Buffer;

// "deflate" is zlib-wrapped by the standard; some clients send the raw stream under that name.
const zlibWrapped = (b: Uint8Array) => (b[0] & 0x0f) === 8 && ((b[0] << 8) | b[1]) % 31 === 0;

const DECODERS: Record<string, Decoder> = {
  gzip: (b, max) => gunzipSync(b, { maxOutputLength: max }),
  'x-gzip': (b, max) => gunzipSync(b, { maxOutputLength: max }),
  deflate: (b, max) => (zlibWrapped(b) ? inflateSync(b, { maxOutputLength: max }) : inflateRawSync(b, { maxOutputLength: max })),
  br: (b, max) => brotliDecompressSync(b, { maxOutputLength: max }),
};

const INFLATERS: Record<string, (first: Uint8Array) => Transform> = {
  gzip: () => createGunzip(),
  'x-gzip': () => createGunzip(),
  deflate: (b) => (zlibWrapped(b) ? createInflate() : createInflateRaw()),
  br: () => createBrotliDecompress(),
};

/** The Content-Encoding's name, or null for none; 415 naming one that is not read. */
function codingOf(coding: string | undefined): string | null {
  const name = (coding ?? '').trim().toLowerCase();
  if (name === '' || name === 'identity') return null;
  if (!DECODERS[name]) {
    throw new VtrError('unsupported_media_type', `Content-Encoding ${coding!.slice(0, 100)} is not supported; send the body uncompressed, or as gzip, deflate or br`);
  }
  return name;
}

/** The stream decoder for a Content-Encoding (given the first bytes), or null for none; 415 as decodeBody. */
export function inflaterFor(coding: string | undefined): { name: string; make: (first: Uint8Array) => Transform } | null {
  const name = codingOf(coding);
  return name === null ? null : { name, make: INFLATERS[name] };
}

/**
 * The body as sent before its Content-Encoding: the bytes themselves without one (or `identity`).
 * 415 naming an encoding it does not read, 400 for bytes that are not what the header says,
 * `tooLarge()` when the decoded body passes `limit` bytes.
 */
export function decodeBody(bytes: Uint8Array, coding: string | undefined, limit: number, tooLarge: () => VtrError): Uint8Array {
  const name = codingOf(coding);
  if (name === null) return bytes;
  try {
    return DECODERS[name](bytes, limit);
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge();
    throw new VtrError('invalid_request', `the body is not valid ${name} data, as its Content-Encoding says it is`);
  }
}

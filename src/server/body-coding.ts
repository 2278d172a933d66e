// Request bodies sent compressed (Content-Encoding), as some HTTP clients of hosted APIs send them.
// Decoded whole, never past the body limit: a small body that inflates beyond it is a 413, like a
// large one (a "zip bomb" costs at most the limit).
import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import { VtrError } from '../domain/errors.js';

type Decoder = (bytes: Uint8Array, max: number) => Buffer;

const DECODERS: Record<string, Decoder> = {
  gzip: (b, max) => gunzipSync(b, { maxOutputLength: max }),
  'x-gzip': (b, max) => gunzipSync(b, { maxOutputLength: max }),
  // "deflate" is zlib-wrapped by the standard; some clients send the raw stream under that name.
  deflate: (b, max) => ((b[0] & 0x0f) === 8 && ((b[0] << 8) | b[1]) % 31 === 0 ? inflateSync(b, { maxOutputLength: max }) : inflateRawSync(b, { maxOutputLength: max })),
  br: (b, max) => brotliDecompressSync(b, { maxOutputLength: max }),
};

/**
 * The body as sent before its Content-Encoding: the bytes themselves without one (or `identity`).
 * 415 naming an encoding it does not read, 400 for bytes that are not what the header says,
 * `tooLarge()` when the decoded body passes `limit` bytes.
 */
export function decodeBody(bytes: Uint8Array, coding: string | undefined, limit: number, tooLarge: () => VtrError): Uint8Array {
  const name = (coding ?? '').trim().toLowerCase();
  if (name === '' || name === 'identity') return bytes;
  const decode = DECODERS[name];
  if (!decode) {
    throw new VtrError('unsupported_media_type', `Content-Encoding ${coding!.slice(0, 100)} is not supported; send the body uncompressed, or as gzip, deflate or br`);
  }
  try {
    return decode(bytes, limit);
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge();
    throw new VtrError('invalid_request', `the body is not valid ${name} data, as its Content-Encoding says it is`);
  }
}

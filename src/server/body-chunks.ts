// The one reader of a request body's bytes as they arrive, never past a limit: what readBody
// (server/http.ts) collects for a body of unknown length, and what a state import reads a row at a
// time (body-stream.ts). Reads the web Request, the same under the node listener and app.request().
import type { Context } from 'hono';
import { VtrError } from '../domain/errors.js';

export const unreadable = () => new VtrError('invalid_json', 'the body could not be read: the client closed the connection or sent a malformed body');

/**
 * 413. A body declared over the limit is left unread: the server reads it off and discards it
 * (up to @hono/node-server's drain bound), so a client still writing gets the answer, not a reset,
 * and keeps its connection. A body cut mid-stream, or declared beyond `DISCARD_AT_MOST`, closes the
 * connection after the answer.
 */
export function tooLarge(c: Context, message: string, declared?: number): VtrError {
  if (declared === undefined || declared > DISCARD_AT_MOST) c.header('Connection', 'close');
  return new VtrError('payload_too_large', message);
}

const DISCARD_AT_MOST = 16 * 1024 * 1024;

/** The body's chunks, at most `limit` bytes (`over()` is thrown past it); none for no body. */
export function bodyChunks(c: Context, limit: number, over: () => VtrError): AsyncGenerator<Uint8Array> {
  let body: ReadableStream<Uint8Array> | null;
  try {
    body = c.req.raw.body;
  } catch {
    throw unreadable();
  }
  return body ? bounded(chunksOf(body), limit, over) : empty();
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

export async function* bounded(chunks: AsyncIterable<Uint8Array>, limit: number, over: () => VtrError): AsyncGenerator<Uint8Array> {
  let size = 0;
  for await (const chunk of chunks) {
    size += chunk.byteLength;
    if (size > limit) throw over();
    yield chunk;
  }
}

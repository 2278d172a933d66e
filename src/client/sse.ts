// Reads the management API's server-sent events (`/_vtr/api/stream`): one connection of its own.
import type { IncomingMessage } from 'node:http';
import { readText, send } from './http.js';
import { ApiError, ConnectionError } from './api-client.js';
import { decodeAnswer, NotEmulatorError } from './answers.js';

export interface StreamEvent {
  event: string;
  data: string;
  id?: string;
}

export interface StreamOptions {
  url: string;
  adminToken?: string | null;
  signal?: AbortSignal;
  /** A silent connection is dead after this long (the server sends a comment every 15 s). */
  idleTimeoutMs?: number;
}

/** Yields each event until the server ends the stream. Throws ConnectionError / ApiError / NotEmulatorError. */
export async function* eventStream(o: StreamOptions): AsyncGenerator<StreamEvent> {
  const headers: Record<string, string> = { accept: 'text/event-stream' };
  if (o.adminToken) headers.authorization = `Bearer ${o.adminToken}`;
  let res: IncomingMessage;
  try {
    // A connection of its own, closed with the stream, so a stopping server cannot take the next
    // request on a kept-alive socket and look alive. The server sends a comment every 15 s.
    res = await send(new URL(o.url), { method: 'GET', headers, signal: o.signal, ownConnection: true, timeoutMs: o.idleTimeoutMs ?? 45_000 });
  } catch (err) {
    if (o.signal?.aborted) return;
    throw new ConnectionError(new URL(o.url).origin, err);
  }
  const status = res.statusCode ?? 0;
  const contentType = res.headers['content-type'] ?? '';
  const where = new URL(o.url);
  if (status !== 200) {
    const text = await readText(res).catch(() => '');
    const answer = decodeAnswer({ url: `${where.origin}${where.pathname}`, status, contentType, text }, null);
    // decodeAnswer throws NotEmulatorError for anything but the emulator's {code, message}.
    if ('error' in answer) throw new ApiError(status, answer.error.code, answer.error.message, answer.error);
  }
  if (!/^text\/event-stream\b/i.test(contentType)) {
    res.destroy();
    throw new NotEmulatorError(`${where.origin}${where.pathname}`, status, `HTTP ${status}, ${contentType.split(';')[0] || 'no content-type'} where an event stream was expected`);
  }
  let buffer = '';
  const decoder = new TextDecoder();
  try {
    for await (const chunk of res) {
      buffer += decoder.decode(chunk as Uint8Array, { stream: true }).replace(/\r\n?/g, '\n');
      let end: number;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const ev = parseBlock(block);
        if (ev) yield ev;
      }
    }
  } catch (err) {
    if (o.signal?.aborted) return;
    throw new ConnectionError(new URL(o.url).origin, err);
  }
}

function parseBlock(block: string): StreamEvent | null {
  let event = 'message';
  const data: string[] = [];
  let id: string | undefined;
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const i = line.indexOf(':');
    const field = i === -1 ? line : line.slice(0, i);
    const value = i === -1 ? '' : line.slice(i + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
    else if (field === 'id') id = value;
  }
  return data.length || event !== 'message' ? { event, data: data.join('\n'), id } : null;
}

// The client's HTTP on Node's own http/https modules. They are loaded with Node itself, where
// loading the undici package costs every CLI command that talks to the emulator ~100 ms of
// start-up (measured: node:http 10 ms, fetch 50–70 ms, undici 100–140 ms to the first answer).
import { Readable, pipeline } from 'node:stream';
import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE' | 'CONNECT' | 'OPTIONS' | 'TRACE' | 'PATCH';

export interface SendOptions {
  method: HttpMethod;
  headers: Record<string, string>;
  /** Chunks are sent as they come (chunked, no Content-Length). */
  body?: string | Uint8Array | AsyncIterable<Uint8Array>;
  /** The socket may be silent this long (waiting for headers or between body chunks), in ms. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** A connection of its own, closed with the response (long-lived streams). */
  ownConnection?: boolean;
}

/** The server took the connection but sent no answer in time: it is there, but busy or stuck. */
export class AnswerTimeout extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`);
    this.name = 'AnswerTimeout';
  }
}

/** Sends one request; resolves with the response once its headers arrived. */
export async function send(url: URL, o: SendOptions): Promise<IncomingMessage> {
  const request = url.protocol === 'https:' ? (await import('node:https')).request : httpRequest;
  const headers = { ...o.headers };
  const whole = typeof o.body === 'string' || o.body instanceof Uint8Array ? o.body : undefined;
  if (whole !== undefined) headers['content-length'] = String(Buffer.byteLength(whole));
  const options: RequestOptions = { method: o.method, headers, signal: o.signal };
  if (o.ownConnection) options.agent = false;
  return new Promise<IncomingMessage>((resolve, reject) => {
    const req = request(url, options, (res) => {
      res.setTimeout(o.timeoutMs, () => res.destroy(new Error(`no data for ${o.timeoutMs} ms`)));
      resolve(res);
    });
    req.setTimeout(o.timeoutMs, () => req.destroy(new AnswerTimeout(o.timeoutMs)));
    req.on('error', reject);
    if (o.body === undefined || whole !== undefined) return void req.end(whole);
    // An answer before the end (a 413, a 400 for the first bad row) stops the sending.
    const source = Readable.from(o.body);
    pipeline(source, req, (err) => {
      if (err && !req.destroyed) req.destroy(err);
      if (err) reject(err);
    });
  });
}

/** The whole body as text. */
export async function readText(res: IncomingMessage): Promise<string> {
  res.setEncoding('utf8');
  let text = '';
  for await (const chunk of res) text += chunk as string;
  return text;
}

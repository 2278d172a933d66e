// The client's HTTP on Node's own http/https modules. They are loaded with Node itself, where
// loading the undici package costs every CLI command that talks to the emulator ~100 ms of
// start-up (measured: node:http 10 ms, fetch 50–70 ms, undici 100–140 ms to the first answer).
import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE' | 'CONNECT' | 'OPTIONS' | 'TRACE' | 'PATCH';

export interface SendOptions {
  method: HttpMethod;
  headers: Record<string, string>;
  body?: string | Uint8Array;
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
  if (o.body !== undefined) headers['content-length'] = String(Buffer.byteLength(o.body));
  const options: RequestOptions = { method: o.method, headers, signal: o.signal };
  if (o.ownConnection) options.agent = false;
  return new Promise<IncomingMessage>((resolve, reject) => {
    const req = request(url, options, (res) => {
      res.setTimeout(o.timeoutMs, () => res.destroy(new Error(`no data for ${o.timeoutMs} ms`)));
      resolve(res);
    });
    req.setTimeout(o.timeoutMs, () => req.destroy(new AnswerTimeout(o.timeoutMs)));
    req.on('error', reject);
    req.end(o.body);
  });
}

/** The whole body as text. */
export async function readText(res: IncomingMessage): Promise<string> {
  res.setEncoding('utf8');
  let text = '';
  for await (const chunk of res) text += chunk as string;
  return text;
}

// One HTTP POST of a delivery with Node's own http/https: no redirects followed, the whole exchange
// (connect, headers, body) bounded by the webhook timeout. Never throws: the result says what happened.
// Not undici: its parser is WebAssembly, which V8 goes on optimising in the background after the
// first delivery, and Node waits for that before a process may exit (a test suite's, ~0.5 s late).
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { formatDuration } from '../domain/time.js';

export interface SendResult {
  ok: boolean;
  status_code: number | null;
  error: string | null;
  /** Ended by the sender's `cancel`, whatever the receiver did: nothing to record. */
  cancelled?: true;
}

/** `cancel`: ends the exchange before its timeout (the emulator is closing and is not to wait for it). */
export type Sender = (url: string, headers: Record<string, string>, body: string, timeoutMs: number, cancel?: AbortSignal) => Promise<SendResult>;

/** The most of an answer's body read (and dropped) before its connection is cut instead. */
const BODY_LIMIT = 256 * 1024;

export function createHttpSender(): { send: Sender; close(): Promise<void> } {
  // Our own connection pools, destroyed on close so no socket outlives the emulator. An idle one is
  // dropped after 4 s, before a receiver's own keep-alive timeout (Node's is 5 s) can cut it mid-reuse.
  const pools = { http: new HttpAgent({ keepAlive: true, timeout: 4_000 }), https: new HttpsAgent({ keepAlive: true, timeout: 4_000 }) };
  const send: Sender = async (url, headers, body, timeoutMs, cancel) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const { signal, done } = either(timeout, cancel);
    try {
      const to = withBasicAuth(url, headers);
      const res = await post(to.url, to.headers, body, signal, pools);
      // The answer's body is not kept, but reading it is part of the exchange (and frees the socket):
      // a 2xx whose body is still coming at the timeout is a timeout.
      await drain(res, signal).catch(() => undefined);
      const code = res.statusCode ?? 0;
      if (cancel?.aborted) return cancelled;
      if (signal.aborted) return { ok: false, status_code: code, error: describe(null, true, timeoutMs) };
      if (code >= 200 && code < 300) return { ok: true, status_code: code, error: null };
      if (code >= 300 && code < 400) {
        const loc = res.headers.location;
        return { ok: false, status_code: code, error: `redirect${loc ? ` to ${String(loc).slice(0, 200)}` : ''} not followed` };
      }
      return { ok: false, status_code: code, error: null };
    } catch (err) {
      if (cancel?.aborted) return cancelled;
      return { ok: false, status_code: null, error: describe(err, timeout.aborted, timeoutMs) };
    } finally {
      done();
    }
  };
  return {
    send,
    close: async () => {
      pools.http.destroy();
      pools.https.destroy();
    },
  };
}

/** Resolves with the answer once its headers arrived; `signal` cuts the exchange at any point. */
function post(url: string, headers: Record<string, string>, body: string, signal: AbortSignal, pools: { http: HttpAgent; https: HttpsAgent }): Promise<IncomingMessage> {
  const https = url.startsWith('https:');
  const request = https ? httpsRequest : httpRequest;
  const all = { ...headers, 'content-length': String(Buffer.byteLength(body)) };
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: all, agent: https ? pools.https : pools.http, signal }, resolve);
    req.on('error', reject);
    req.end(body);
  });
}

/** Reads the body to its end, or cuts the connection past BODY_LIMIT or at `signal`. */
function drain(res: IncomingMessage, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    let read = 0;
    const stop = () => res.destroy();
    signal.addEventListener('abort', stop, { once: true });
    const end = (err?: unknown) => {
      signal.removeEventListener('abort', stop);
      if (err) reject(err);
      else resolve();
    };
    res.on('data', (chunk: Buffer) => {
      read += chunk.length;
      if (read > BODY_LIMIT) {
        res.destroy();
        end();
      }
    });
    res.on('end', () => end());
    res.on('error', end);
    res.on('close', () => end(res.complete ? undefined : new Error('the answer was cut')));
  });
}

const cancelled: SendResult = { ok: false, status_code: null, error: 'cancelled: the emulator was closed', cancelled: true };

/**
 * A signal aborted by the first of the two (AbortSignal.any is missing from Node 20's first
 * releases); `done` unhooks it from `cancel`, which every send shares.
 */
function either(timeout: AbortSignal, cancel: AbortSignal | undefined): { signal: AbortSignal; done: () => void } {
  if (!cancel) return { signal: timeout, done: () => undefined };
  const both = new AbortController();
  const abort = () => both.abort();
  if (cancel.aborted) abort();
  timeout.addEventListener('abort', abort, { once: true });
  cancel.addEventListener('abort', abort, { once: true });
  return { signal: both.signal, done: () => cancel.removeEventListener('abort', abort) };
}

/**
 * `https://user:pass@host/hook`: the credentials go as HTTP Basic auth, as webhook providers that
 * take such URLs send them (undici would drop them silently); percent-escapes are decoded first.
 */
function withBasicAuth(url: string, headers: Record<string, string>): { url: string; headers: Record<string, string> } {
  if (!url.includes('@')) return { url, headers };
  const u = new URL(url);
  if (!u.username && !u.password) return { url, headers };
  const credentials = `${decoded(u.username)}:${decoded(u.password)}`;
  u.username = '';
  u.password = '';
  return { url: u.href, headers: { ...headers, authorization: `Basic ${Buffer.from(credentials).toString('base64')}` } };
}

function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part; // a stray % is itself
  }
}

function describe(err: unknown, timedOut: boolean, timeoutMs: number): string {
  if (timedOut) return `timed out after ${formatDuration(timeoutMs)}`;
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.code ?? e.cause?.code;
  const raw = e.cause?.message ?? e.message ?? String(err);
  // A handshake that fails while the request is written is a plain EPROTO, OpenSSL's reason in its text.
  const reason = /:error:[0-9A-Fa-f]+:SSL routines:[^:]*:([^:]+):/.exec(raw)?.[1].trim();
  if (code?.startsWith('ERR_SSL_') || reason) return tlsError(raw, reason, code);
  const message = raw.replace(/\s+/g, ' ').trim().slice(0, 300);
  return code && !message.includes(code) ? `${message} (${code})` : message;
}

// OpenSSL's own text ("<thread>:error:<id>:SSL routines:<function>:<reason>:<source file>:<line>:\n")
// is one line of a record, a tail line or a mail only by its reason; its code is Node's name for it.
function tlsError(raw: string, reason: string | undefined, code: string | undefined): string {
  const why = reason ?? raw.replace(/\s+/g, ' ').trim().slice(0, 200);
  const name = code?.startsWith('ERR_SSL_') ? code : `ERR_SSL_${why.toUpperCase().replace(/\W+/g, '_')}`;
  const hint = name === 'ERR_SSL_WRONG_VERSION_NUMBER' ? '; is the endpoint plain http://?' : '';
  return `TLS error: ${why} (${name})${hint}`;
}

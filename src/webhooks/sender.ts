// One HTTP POST of a delivery with undici: no redirects followed, the whole exchange (connect,
// headers, body) bounded by the webhook timeout. Never throws: the result says what happened.
import type { Agent } from 'undici';
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

export function createHttpSender(): { send: Sender; close(): Promise<void> } {
  // Our own connection pool, closed on shutdown so idle keep-alive sockets do not hold the process.
  // undici loads with the first delivery: an emulator that sends none never pays for it.
  let client: Promise<{ agent: Agent; request: typeof import('undici').request }> | null = null;
  const undici = () => (client ??= import('undici').then((u) => ({ agent: new u.Agent({ keepAliveTimeout: 4_000, keepAliveMaxTimeout: 10_000 }), request: u.request })));
  const send: Sender = async (url, headers, body, timeoutMs, cancel) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const { signal, done } = either(timeout, cancel);
    try {
      const { agent, request } = await undici();
      const to = withBasicAuth(url, headers);
      const res = await request(to.url, { method: 'POST', headers: to.headers, body, dispatcher: agent, signal });
      // The answer's body is not kept, but reading it is part of the exchange (and frees the socket):
      // a 2xx whose body is still coming at the timeout is a timeout.
      await res.body.dump({ limit: 256 * 1024, signal }).catch(() => undefined);
      const code = res.statusCode;
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
      if (client) await (await client).agent.close().catch(() => undefined);
    },
  };
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
  if (code?.startsWith('ERR_SSL_')) return tlsError(raw, code);
  const message = raw.replace(/\s+/g, ' ').trim().slice(0, 300);
  return code && !message.includes(code) ? `${message} (${code})` : message;
}

// OpenSSL's own text ("<thread>:error:<id>:SSL routines:<function>:<reason>:<source file>:<line>:\n")
// is one line of a record, a tail line or a mail only by its reason.
function tlsError(raw: string, code: string): string {
  const parts = raw.split(':');
  const reason = parts[1] === 'error' && parts.length > 5 ? parts[5].trim() : raw.replace(/\s+/g, ' ').trim().slice(0, 200);
  const hint = code === 'ERR_SSL_WRONG_VERSION_NUMBER' ? '; is the endpoint plain http://?' : '';
  return `TLS error: ${reason} (${code})${hint}`;
}

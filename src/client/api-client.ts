// The one HTTP client for the emulator's public and management APIs (used by the CLI and the
// library). Errors come back as ApiError (the server's {code, message}), ConnectionError, or
// NotEmulatorError (something else answered: see answers.ts).
import { decodeAnswer, NotEmulatorError } from './answers.js';
import { Readable } from 'node:stream';
import { readText, send as sendHttp, type HttpMethod } from './http.js';
import { ApiError, ConnectionError } from './errors.js';

export { NotEmulatorError, ApiError, ConnectionError };

export interface ClientOptions {
  /** Public API base, e.g. http://127.0.0.1:8787/api/v1 */
  baseUrl: string;
  accessToken?: string | null;
  secretKey?: string | null;
  adminToken?: string | null;
  /** Per request, ms (default 120 s; 0: no limit). */
  timeoutMs?: number;
  /**
   * Answers a request without the network: the library's in-process emulator (`emu.fetch`).
   * Without it the client speaks HTTP.
   */
  fetch?: (request: Request) => Promise<Response>;
  /**
   * Why no request may go (the library's emulator, closed), or null: the ConnectionError says it,
   * and nothing is sent to a port another emulator may have taken since.
   */
  unavailable?: () => string | null;
  /** Told the emulator's clock mode (`system`, `manual`, `frozen`) whenever an answer names it. */
  onClockMode?: (mode: string) => void;
}

export interface RequestOptions {
  query?: Record<string, string | number | undefined | null>;
  body?: unknown;
  /**
   * A body that is JSON text already, sent as it is (a large state file, not parsed to be written
   * again); chunks are sent as they come (a file too large to hold).
   */
  json?: string | Uint8Array | AsyncIterable<Uint8Array>;
  /** Which credential goes in the Authorization header. */
  auth?: 'token' | 'admin' | 'none';
}

/** `http://host:port/api/v1` → `http://host:port` (the management API and console live there). */
export function originOf(baseUrl: string): string {
  const u = new URL(baseUrl);
  return `${u.protocol}//${u.host}`;
}

export function createApiClient(opts: ClientOptions) {
  const origin = originOf(opts.baseUrl);
  const apiBase = opts.baseUrl.replace(/\/+$/, '');

  /**
   * Sends one request, through the injected fetch or over HTTP, and resolves once the answer's
   * headers came (the clock mode they name told). A failure, then or while its `text()` is read,
   * is a ConnectionError; one that changes state (not a GET) says it may have been carried out.
   */
  async function open(method: HttpMethod, url: string, o: RequestOptions): Promise<Opened> {
    const u = new URL(url);
    for (const [k, v] of Object.entries(o.query ?? {})) if (v != null && v !== '') u.searchParams.set(k, String(v));
    const headers: Record<string, string> = { accept: 'application/json' };
    const cred = o.auth === 'token' ? opts.accessToken : o.auth === 'admin' ? opts.adminToken : null;
    if (cred) headers.authorization = `Bearer ${cred}`;
    let body: string | Uint8Array | AsyncIterable<Uint8Array> | undefined;
    if (o.body !== undefined || o.json !== undefined) {
      body = o.json ?? JSON.stringify(o.body);
      headers['content-type'] = 'application/json';
    }
    const write = method !== 'GET';
    const why = opts.unavailable?.();
    if (why) throw new ConnectionError(origin, undefined, why, write);
    // An injected fetch (the library's in-process one) says why in its own words.
    const failed = (err: unknown) => new ConnectionError(origin, err, opts.fetch && err instanceof Error ? err.message : undefined, write);
    let opened: Opened;
    try {
      if (opts.fetch) {
        const init: RequestInit & { duplex?: 'half' } = { method, headers };
        if (body !== undefined) init.body = typeof body === 'string' || body instanceof Uint8Array ? body : (Readable.toWeb(Readable.from(body)) as ReadableStream<Uint8Array>);
        if (init.body instanceof ReadableStream) init.duplex = 'half';
        const res = await opts.fetch(new Request(u, init));
        opened = { url: u, status: res.status, header: (name) => res.headers.get(name), body: res.body ?? (async function* () {})(), text: () => res.text() };
      } else {
        const res = await sendHttp(u, { method, headers, body, timeoutMs: opts.timeoutMs ?? 120_000 });
        opened = { url: u, status: res.statusCode ?? 0, header: (name) => (res.headers[name] as string | undefined) ?? null, body: res, text: () => readText(res) };
      }
    } catch (err) {
      throw failed(err);
    }
    const clockMode = opened.header('vtr-clock');
    if (clockMode) opts.onClockMode?.(clockMode);
    const text = opened.text;
    return { ...opened, text: () => text().catch((err: unknown) => Promise.reject(failed(err))) };
  }

  /** `route`: the path as answers.ts lists it (`/_vtr/api/...`, `/api/v1/...`), to check the answer's shape. */
  async function send<T>(method: HttpMethod, url: string, o: RequestOptions = {}, route?: string): Promise<T> {
    const res = await open(method, url, o);
    const text = await res.text();
    const { status } = res;
    // The schemas load with the first 2xx answer to check (zod stays out of the CLI's start-up).
    const schema = route && status >= 200 && status < 300 ? ((await import('../api/answers.js')).routeOf(method, route.split('?')[0])?.schema ?? null) : null;
    const answer = decodeAnswer({ url: `${res.url.origin}${res.url.pathname}`, status, contentType: res.header('content-type') ?? '', text }, schema);
    if ('error' in answer) throw new ApiError(status, answer.error.code, answer.error.message, answer.error);
    return answer.data as T;
  }

  /**
   * A GET whose answer may be larger than memory (a state export): its body as it arrives, its
   * headers. An error answer is thrown as `send` throws it. The body throws a ConnectionError when
   * the connection ends before the length the emulator gave: never a short body taken as whole.
   */
  async function download(path: string): Promise<Download> {
    const res = await open('GET', `${origin}/_vtr/api${path}`, { auth: 'admin' });
    const { url: u, status, header } = res;
    const contentType = header('content-type') ?? '';
    // An error, or something other than JSON (not an emulator): small, read whole and decoded as any answer.
    if (status < 200 || status >= 300 || !/^application\/json\b/i.test(contentType)) {
      const text = await res.text();
      const answer = decodeAnswer({ url: `${u.origin}${u.pathname}`, status, contentType, text }, null);
      if ('error' in answer) throw new ApiError(status, answer.error.code, answer.error.message, answer.error);
      return { header, body: (async function* () { yield Buffer.from(text, 'utf8'); })() };
    }
    const length = header('content-length');
    return { header, body: whole(res.body, length === null ? null : Number(length), () => new ConnectionError(origin, Object.assign(new Error('aborted'), { code: 'ECONNRESET' }))) };
  }

  return {
    baseUrl: apiBase,
    origin,
    options: opts,
    /** Public API (`/api/v1/...`), bearer access token. */
    api: <T = unknown>(method: HttpMethod, path: string, o: RequestOptions = {}) =>
      send<T>(method, `${apiBase}${path}`, { auth: 'token', ...o }, `/api/v1${path}`),
    /**
     * Visitor check (`POST /api/v1/event`): the secret key goes in the body, never in a header.
     * A `secret_key` already in `body` is kept when the client has none.
     */
    check: <T = unknown>(body: Record<string, unknown> = {}) =>
      send<T>('POST', `${apiBase}/event`, { auth: 'none', body: { ...body, secret_key: opts.secretKey ?? body.secret_key } }, '/api/v1/event'),
    /** Management API (`/_vtr/api/...`), admin token when one is set. */
    admin: <T = unknown>(method: HttpMethod, path: string, o: RequestOptions = {}) =>
      send<T>(method, `${origin}/_vtr/api${path}`, { auth: 'admin', ...o }, `/_vtr/api${path}`),
    raw: <T = unknown>(method: HttpMethod, url: string, o: RequestOptions = {}) => send<T>(method, url, o),
    /** Management API GET of an answer of any size (`/state`), admin token when one is set. */
    download,
  };
}

/** An answer as it came: read it whole (`text`) or as it arrives (`body`), once. */
interface Opened {
  url: URL;
  status: number;
  header(name: string): string | null;
  body: AsyncIterable<Uint8Array>;
  text(): Promise<string>;
}

export interface Download {
  header(name: string): string | null;
  /** The bytes as they arrive; iterate once. */
  body: AsyncIterable<Uint8Array>;
}

/** The chunks, then a `cut()` error if fewer bytes came than `length` said (or one of the connection's). */
async function* whole(chunks: AsyncIterable<Uint8Array>, length: number | null, cut: () => Error): AsyncGenerator<Uint8Array> {
  let got = 0;
  try {
    for await (const chunk of chunks) {
      got += chunk.byteLength;
      yield chunk;
    }
  } catch {
    throw cut();
  }
  if (length !== null && got < length) throw cut();
}

export type ApiClient = ReturnType<typeof createApiClient>;

/**
 * The same client with no time limit: for calls the emulator answers only once work that may take
 * longer than the usual 120 s is done (a clock move running due attempts, a manual attempt, each up
 * to --webhook-timeout). Ctrl-C stops waiting.
 */
export function withoutTimeLimit(client: ApiClient): ApiClient {
  return createApiClient({ ...client.options, timeoutMs: 0 });
}

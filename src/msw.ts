// `vtr/msw`: Mock Service Worker handlers that answer the service's API at a base URL of the user's
// choice from an in-process emulator, for test suites that already intercept `fetch` with MSW. No
// port is opened: each intercepted request goes to the emulator's one pipeline (`emu.fetch`).
import type { HttpHandler } from 'msw';
import type { RunningEmulator, StartEmulatorOptions } from './library/types.js';
import { unknownOption, unknownOptionMessage } from './library/known-options.js';
import { HANDLERS_OPTION_NAMES } from './domain/option-names.js';
import { schemelessUrlMeant } from './domain/webhooks.js';

export interface CreateHandlersOptions {
  /** Where the app under test sends the service's API, e.g. `https://risk.example.com/api/v1`. */
  baseUrl: string;
  /** An emulator to answer from; by default one of its own, in memory and without a port. */
  emulator?: RunningEmulator | undefined;
  /**
   * Options for the emulator it starts when none is given (refused with `emulator`). It answers
   * in-process, so it has no port: listen, port and host are refused.
   */
  emulatorOptions?: Omit<StartEmulatorOptions, 'listen' | 'port' | 'host'> | undefined;
}

export interface VtrHandlers {
  /** Give these to `setupServer(...)` (msw/node) or `server.use(...)`: the emulator runs in Node, not in a browser. */
  handlers: HttpHandler[];
  /** The emulator behind them: its keys (`emulator.site`), helpers and clock. */
  emulator: RunningEmulator;
  /** Stops the emulator when it is the handlers' own; one passed in is left to its owner. */
  close(): Promise<void>;
}

/**
 * Maps `<baseUrl>/<rest>` to the emulator's `/api/v1/<rest>`, keeping the query. A base URL without
 * the version segment (`https://risk.example.com`) whose app asks for `<baseUrl>/api/v1/...` keeps
 * that path, rather than asking for `/api/v1/api/v1/...`; under a base URL that has it, a path that
 * repeats it is asked for as it is (and is a 404, as from the service).
 */
export function emulatorUrl(baseUrl: string, requestUrl: string): string {
  const base = new URL(baseUrl);
  const url = new URL(requestUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  let rest = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : url.pathname;
  // The base URL itself, as sent: `/api/v1`, not a `/api/v1/` the app never asked for.
  if (rest === '') return `http://127.0.0.1/api/v1${url.search}`;
  if (!rest.startsWith('/')) rest = `/${rest}`;
  // Only a base without the version segment: under `…/api/v1` a second `/api/v1` is the app's slip,
  // which the service answers with a 404, so it goes on as written.
  const versioned = !/\/api\/v1$/.test(prefix) && (rest === '/api/v1' || rest.startsWith('/api/v1/'));
  return `http://127.0.0.1${versioned ? rest : `/api/v1${rest}`}${url.search}`;
}

/**
 * The base URL as a URL, or a TypeError naming `baseUrl`: an unset environment variable, or a host
 * without its scheme (`localhost:3000/…` parses with the scheme `localhost:`), would give handlers
 * that match nothing, and every request would go unanswered or to the network.
 */
function baseUrlOf(value: unknown): URL {
  const refuse = (hint = '') =>
    new TypeError(`createHandlers: baseUrl: expected an http:// or https:// URL, e.g. https://risk.example.com/api/v1, got ${typeof value === 'string' ? JSON.stringify(value) : String(value)}${hint}`);
  if (typeof value !== 'string') throw refuse();
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw refuse();
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    const meant = schemelessUrlMeant(value);
    throw refuse(meant ? ` (did you mean ${meant}?)` : '');
  }
  // Handlers match by path: a query or fragment here would be dropped without a word (each
  // request's own query goes on to the emulator as it is).
  if (/[?#]/.test(value)) {
    throw new TypeError(`createHandlers: baseUrl: expected a URL without a query or fragment (the handlers match by path; each request keeps its own query), e.g. ${JSON.stringify(value.replace(/[?#].*$/s, ''))}, got ${JSON.stringify(value)}`);
  }
  return url;
}

/**
 * msw, an optional peer dependency, loaded when handlers are made (before any emulator starts): in a
 * project without it, a message that says what to install instead of Node's "Cannot find package 'msw'".
 */
async function loadMsw(): Promise<typeof import('msw')> {
  try {
    return await import('msw');
  } catch (err) {
    const e = err as { code?: string; message?: string };
    // Only msw itself missing: a broken install of one of its own dependencies is reported as it is.
    if (e.code === 'ERR_MODULE_NOT_FOUND' && /package 'msw'/.test(e.message ?? '')) {
      throw new Error('vtr/msw needs msw, v2 or v3, installed in your project as a dev dependency: npm i -D msw', { cause: err });
    }
    throw err;
  }
}

/** One that is not an emulator (a Promise of one, not awaited) would make every answer a 500. */
function checkEmulator(emulator: unknown): void {
  if (emulator === undefined) return;
  if (typeof (emulator as { then?: unknown } | null)?.then === 'function') throw new TypeError('createHandlers: emulator: got a Promise: pass the emulator startEmulator() resolves with (await it)');
  if (typeof (emulator as { fetch?: unknown } | null)?.fetch !== 'function') throw new TypeError('createHandlers: emulator: expected the emulator startEmulator() resolves with, or leave emulator out for one of its own');
}

/**
 * A request to handlers whose emulator is closed (a test's request after afterAll's close(), a
 * server.close() forgotten): the contract's error shape with a 503 that says so, rather than msw's
 * 500 with a stack trace, or a pass-through to a host that does not exist.
 */
function closedAnswer(byOwner: boolean): Response {
  // One passed in is closed by its owner, not by the handlers' close(): the order to fix is the server's and that close().
  const [why, fix] = byOwner
    ? ['emu.close() was called', 'it was passed in to createHandlers(), so call server.close() before its close(), or make new handlers over a running emulator']
    : ['their close() was called', "call server.close() before the handlers' close(), or make new handlers with createHandlers()"];
  const message = `vtr/msw: the emulator behind these handlers is closed (${why}); nothing was done: ${fix}`;
  return Response.json({ code: 'shutting_down', message }, { status: 503 });
}

/**
 * Everything under the base URL, and the base URL itself (a 404, as from the service), as a RegExp:
 * msw reads a string as a pattern, so a base path with `:`, `*`, `+` or `( )` would match other
 * paths, none, or make msw's lookup throw for every request, the app's other handlers' too.
 */
function underBase(root: string): RegExp {
  return new RegExp(`^${root.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')}(?:/.*)?$`);
}

/** Options for no port at all: the handlers answer in-process, so a port would only be left open. */
const PORT_OPTIONS = ['listen', 'port', 'host'] as const;

/** emulatorOptions that would be ignored (an emulator is given) or open a port no handler uses. */
function checkEmulatorOptions(opts: CreateHandlersOptions): void {
  const given = opts.emulatorOptions;
  if (given === undefined) return;
  if (opts.emulator !== undefined) {
    throw new TypeError('createHandlers: emulator and emulatorOptions: given both, but the emulator passed in is already started and emulatorOptions would be ignored; drop emulatorOptions (start the emulator with them instead), or drop emulator for one of its own started with them');
  }
  if (typeof given !== 'object' || given === null) return;
  const port = PORT_OPTIONS.find((k) => (given as StartEmulatorOptions)[k] !== undefined);
  if (port !== undefined) {
    throw new TypeError(`createHandlers: emulatorOptions: ${port}: the handlers answer in-process and their emulator has no port; drop ${port} (for an emulator reached over HTTP too, start one with startEmulator() and pass it as emulator)`);
  }
}

/** The handlers' own emulator, with no port; its refusals name createHandlers' emulatorOptions. */
async function startOwn(given: StartEmulatorOptions | undefined): Promise<RunningEmulator> {
  const { start } = await import('./library/start.js');
  // Anything but an object goes as it is, to be refused as such (a string spread would be options "0", "1", ...).
  const opts = typeof given === 'object' && given !== null && !Array.isArray(given) ? { ...given, listen: false } : (given ?? { listen: false });
  return start(opts, { prefix: 'createHandlers: emulatorOptions', optionNames: HANDLERS_OPTION_NAMES });
}

/** The base URL given alone (`createHandlers(url)`) would read as no baseUrl: say where it goes. */
function checkOptionsObject(opts: unknown): void {
  if (opts === undefined || opts === null || (typeof opts === 'object' && !Array.isArray(opts) && !(opts instanceof URL))) return;
  const shown = typeof opts === 'string' ? JSON.stringify(opts) : opts instanceof URL ? 'a URL' : Array.isArray(opts) ? 'an array' : String(opts);
  const url = typeof opts === 'string' || opts instanceof URL ? `: pass { baseUrl: ${JSON.stringify(String(opts))} }` : '';
  throw new TypeError(`createHandlers: expected options ({ baseUrl, emulator?, emulatorOptions? }), got ${shown}${url}`);
}

const OPTIONS: Record<keyof CreateHandlersOptions, true> = { baseUrl: true, emulator: true, emulatorOptions: true };

export async function createHandlers(opts: CreateHandlersOptions): Promise<VtrHandlers> {
  checkOptionsObject(opts);
  const base = baseUrlOf(opts?.baseUrl);
  // As startEmulator refuses one: a misspelt emulatorOptions would silently start with the defaults.
  const unknown = unknownOption(opts, OPTIONS);
  if (unknown !== undefined) throw new TypeError(`createHandlers: ${unknownOptionMessage(unknown, OPTIONS)}`);
  checkEmulator(opts.emulator);
  checkEmulatorOptions(opts);
  const { http } = await loadMsw();
  const own = !opts.emulator;
  const emulator = opts.emulator ?? (await startOwn(opts.emulatorOptions));
  const root = `${base.origin}${base.pathname.replace(/\/+$/, '')}`;
  let closed = false;
  const answer = async ({ request }: { request: Request }) => {
    if (closed) return closedAnswer(false);
    const method = request.method;
    const body = method === 'GET' || method === 'HEAD' ? undefined : await request.arrayBuffer();
    try {
      return await emulator.fetch(new Request(emulatorUrl(opts.baseUrl, request.url), { method, headers: request.headers, body }));
    } catch (err) {
      // An emulator passed in, closed by its owner.
      if ((err as { code?: unknown } | null)?.code === 'shutting_down') return closedAnswer(true);
      throw err;
    }
  };
  return {
    handlers: [http.all(underBase(root), answer)],
    emulator,
    close: async () => {
      // One passed in stays running, and so answering here too.
      if (!own) return;
      closed = true;
      await emulator.close();
    },
  };
}

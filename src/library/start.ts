// `startEmulator()`: an emulator in this process for a test suite. Loaded on the first call, so
// `import('vtr')` itself stays cheap.
import { createEmulator, listenProblem, type EmulatorOptions } from '../emulator.js';
import { ClockError, CLOCK_MODES } from '../domain/clock.js';
import { VtrError, type ErrorCode } from '../domain/errors.js';
import { LIBRARY_OPTION_NAMES, type OptionNames } from '../domain/option-names.js';
import { bindAddress, isLoopbackBind, reachableHost } from '../domain/ip-intel.js';
import { isSmtpUrl } from '../domain/smtp-url.js';
import { AUTO_RETRIES, MAX_WEBHOOK_TIMEOUT_MS } from '../domain/retry-policy.js';
import { createApiClient, type ClientOptions } from '../client/api-client.js';
import { parseDuration, parseTimestamp, formatMillis } from '../domain/time.js';
import { createHelpers, type WatchWebhookEvents } from './helpers.js';
import { namedAfterClose } from './named-client.js';
import type { WebhookEvent } from './api-types.js';
import type { RunningEmulator, StartEmulatorOptions } from './types.js';
import { unknownOption, unknownOptionMessage } from './known-options.js';
import { hostWithPortProblem } from './host-option.js';

/** Where requests answered in-process say they went (no socket is opened for them). */
const IN_PROCESS_ORIGIN = 'http://127.0.0.1';

const CLOCKS: readonly string[] = CLOCK_MODES;
const DURATIONS = ['retryBaseMs', 'webhookTimeoutMs'] as const;

const shown = (v: unknown) => (typeof v === 'string' ? JSON.stringify(v) : v instanceof Date ? 'an invalid Date' : String(v));

/** Every option, as a record so that one added to the type must be added here. */
const OPTIONS: Record<keyof StartEmulatorOptions, true> = {
  db: true, port: true, host: true, adminToken: true, listen: true, clock: true,
  retryBaseMs: true, retrySchedule: true, retryJitter: true, webhookTimeoutMs: true, smtpUrl: true, sync: true,
};

/**
 * Who starts the emulator, as the user called it: `startEmulator`, or `createHandlers` with its
 * emulatorOptions. Its messages name that call, not one the user never made.
 */
export interface Starter {
  /** Begins each refusal of an option, e.g. "createHandlers: emulatorOptions". */
  prefix: string;
  optionNames: OptionNames;
}

const START_EMULATOR: Starter = { prefix: 'startEmulator', optionNames: LIBRARY_OPTION_NAMES };

/** Refuses what `vtr serve` would refuse, naming the option and what it takes. */
function checkOptions(opts: StartEmulatorOptions, prefix: string): void {
  const bad = (what: string) => new TypeError(`${prefix}: ${what}`);
  // null would crash on its first option, a string ('frozen') start as if there were none.
  if (typeof opts !== 'object' || opts === null || Array.isArray(opts)) throw bad(`expected an object of options (or none), got ${opts === null ? 'null' : Array.isArray(opts) ? 'an array' : shown(opts)}`);
  const unknown = unknownOption(opts, OPTIONS);
  if (unknown !== undefined) throw bad(unknownOptionMessage(unknown, OPTIONS));
  // An empty name would be an SQLite temporary file: neither kept nor the documented in-memory default.
  if (opts.db !== undefined && !(typeof opts.db === 'string' && opts.db !== '')) throw bad(`db: expected a file name (leave db out to keep nothing), got ${shown(opts.db)}`);
  if (opts.clock !== undefined && !CLOCKS.includes(opts.clock)) throw bad(`clock: expected 'system', 'manual' or 'frozen', got ${JSON.stringify(opts.clock)}`);
  for (const k of DURATIONS) {
    const v = opts[k];
    if (v !== undefined && !(typeof v === 'number' && Number.isFinite(v) && v > 0)) throw bad(`${k}: expected a number of milliseconds above 0, got ${shown(v)}${typeof v === 'string' ? ' (a string: use Number(...))' : ''}`);
  }
  if (opts.webhookTimeoutMs !== undefined && opts.webhookTimeoutMs > MAX_WEBHOOK_TIMEOUT_MS) throw bad(`webhookTimeoutMs: expected at most ${MAX_WEBHOOK_TIMEOUT_MS} (24 hours), got ${opts.webhookTimeoutMs}`);
  const schedule = opts.retrySchedule;
  if (schedule !== undefined && !(Array.isArray(schedule) && schedule.length === AUTO_RETRIES && schedule.every((v) => typeof v === 'number' && Number.isFinite(v) && v >= 0))) {
    throw bad('retrySchedule: expected five delays in milliseconds, e.g. [5000, 300000, 1800000, 7200000, 18000000]');
  }
  if (opts.port !== undefined && !(Number.isInteger(opts.port) && opts.port >= 0 && opts.port <= 65535)) {
    throw bad(`port: expected a whole number 0-65535, got ${shown(opts.port)}${typeof opts.port === 'string' ? ' (a string: use Number(...))' : ''}`);
  }
  for (const k of ['listen', 'retryJitter'] as const) {
    if (opts[k] !== undefined && typeof opts[k] !== 'boolean') throw bad(`${k}: expected true or false, got ${shown(opts[k])}`);
  }
  // An app pointed at that port would find nothing there.
  if (opts.listen === false && opts.port) throw bad(`port: ${opts.port} given with listen: false, which opens no port; drop port (emu.fetch and the helpers answer in-process), or drop listen: false to listen on it`);
  // Compared with the Authorization header's text: a number or an object would make every management call a 500.
  if (opts.adminToken !== undefined && typeof opts.adminToken !== 'string') throw bad(`adminToken: expected a string, got ${shown(opts.adminToken)}`);
  // As `vtr serve --admin-token ''` is refused: an unset variable would leave the management API open.
  if (typeof opts.adminToken === 'string' && opts.adminToken.trim() === '') throw bad(`adminToken: must not be empty${opts.adminToken ? ' or blank' : ''} (an environment variable left unset?); leave adminToken out for no token`);
  // As `vtr serve` refuses --host without --admin-token: a network could read every site's keys.
  if (opts.host !== undefined && !(typeof opts.host === 'string' && opts.host.trim() !== '')) throw bad(`host: expected a host name or address, e.g. '127.0.0.1' (the default), got ${shown(opts.host)}`);
  const withPort = typeof opts.host === 'string' ? hostWithPortProblem(opts.host) : null;
  if (withPort) throw bad(`host: ${JSON.stringify(opts.host)}: ${withPort}`);
  if (opts.host !== undefined && !isLoopbackBind(opts.host) && !opts.adminToken) {
    throw bad(`host: ${JSON.stringify(opts.host)} is not a loopback address, so the management API (every site's keys) would be open to the network; pass adminToken too, to require it`);
  }
  if (opts.smtpUrl !== undefined && !isSmtpUrl(opts.smtpUrl)) throw bad(`smtpUrl: ${JSON.stringify(opts.smtpUrl)} is not an smtp:// URL, e.g. smtp://127.0.0.1:1025`);
  if (opts.sync !== undefined && opts.sync !== 'normal' && opts.sync !== 'full') throw bad(`sync: expected 'normal' or 'full', got ${JSON.stringify(opts.sync)}`);
}


/** A Request from any realm (undici's own, @hono/node-server's, another copy's): not only this global's. */
const isRequest = (input: unknown): input is Request =>
  input instanceof Request || (typeof input === 'object' && input !== null && typeof (input as Request).url === 'string' && typeof (input as Request).method === 'string' && typeof (input as Request).headers === 'object');

/** `new Request(input, init)`, for a Request of any realm: this realm's constructor reads another's as a URL string. */
function withInit(input: Request, init: RequestInit): Request {
  if (input instanceof Request) return new Request(input, init);
  const other: Request = input;
  const body = other.method === 'GET' || other.method === 'HEAD' ? undefined : other.body;
  return new Request(other.url, { method: other.method, headers: new Headers([...other.headers]), body, duplex: 'half', ...init } as RequestInit);
}

/**
 * The answer with the content-length the HTTP adapter would send for it, its body read once here
 * (in process only: over HTTP the adapter measures what it writes, faster than a header the routes
 * set). An event stream never ends, and goes as it is, as over HTTP (chunked).
 */
async function withLength(res: Response): Promise<Response> {
  if (res.body === null || res.headers.has('content-length') || /^text\/event-stream/i.test(res.headers.get('content-type') ?? '')) return res;
  const bytes = new Uint8Array(await res.arrayBuffer());
  const headers = new Headers(res.headers);
  headers.set('content-length', String(bytes.byteLength));
  return new Response(bytes, { status: res.status, statusText: res.statusText, headers });
}

export async function start(opts: StartEmulatorOptions = {}, starter: Starter = START_EMULATOR): Promise<RunningEmulator> {
  checkOptions(opts, starter.prefix);
  // As `vtr serve --admin-token` takes it: a token read from a file keeps its line ending, which no header carries.
  const adminToken = opts.adminToken?.trim() ?? null;
  const emuOpts: EmulatorOptions = {
    dbPath: opts.db ?? ':memory:',
    clock: opts.clock ?? 'system',
    retryBaseMs: opts.retryBaseMs,
    retrySchedule: opts.retrySchedule ?? null,
    retryJitter: opts.retryJitter,
    webhookTimeoutMs: opts.webhookTimeoutMs,
    smtpUrl: opts.smtpUrl ?? null,
    sync: opts.sync,
    adminToken,
    optionNames: starter.optionNames,
  };
  const emulator = createEmulator(emuOpts);
  const host = bindAddress(opts.host ?? '127.0.0.1');
  let origin = IN_PROCESS_ORIGIN;
  if (opts.listen !== false) {
    let port: number;
    let address: string;
    try {
      ({ port, address } = await emulator.listen(opts.port ?? 0, host));
    } catch (err) {
      // Nothing of it may stay open (the database, its timers) for a suite that goes on, nor the
      // database files it created.
      await emulator.close({ failedStart: true });
      // As `vtr serve` says for --port and --host, naming the options here.
      const problem = listenProblem(err);
      // With a code each, so a test suite can tell a port in use from a host it cannot listen on.
      const refused = (code: ErrorCode, message: string) => Object.assign(new VtrError(code, message), { cause: err });
      if (problem?.kind === 'in_use') throw refused('port_in_use', `startEmulator: port ${opts.port} on ${host} is in use; leave port out (or 0) for a free one`);
      if (problem?.kind === 'denied') throw refused('port_denied', `startEmulator: port ${opts.port} on ${host}: permission denied (${problem.code}); leave port out (or 0) for a free one, or use a port above 1023`);
      if (problem?.kind === 'no_such_host') throw refused('host_unavailable', `startEmulator: host ${JSON.stringify(host)}: cannot listen there (${problem.code}); give a name or address of this machine, e.g. 127.0.0.1`);
      throw err;
    }
    // A wildcard bind is reached through loopback, localhost by the address it was bound to, as `vtr serve` prints it.
    origin = `http://${reachableHost(host, address)}:${port}`;
  }
  const baseUrl = `${origin}/api/v1`;

  let closed = false;
  const CLOSED = 'this emulator is closed (emu.close() was called): start another with startEmulator()';
  /** `method`: the one called, named first as in its other refusals ("emu.reset: this emulator is closed ..."). */
  const notAfterClose = (method: string) => {
    // With a code, so vtr/msw can answer a request to handlers over a closed emulator as one.
    if (closed) throw new VtrError('shutting_down', `${method}: ${CLOSED}`);
  };
  /** Answers a request in-process, exactly as over HTTP; a relative URL is resolved against the emulator. */
  const fetchInProcess = async (input: Request | string | URL, init?: RequestInit): Promise<Response> => {
    notAfterClose('emu.fetch');
    // As the global fetch: anything but a URL or a Request (undefined, { url }) is a TypeError, not GET /undefined.
    if (!isRequest(input) && typeof input !== 'string' && !(input instanceof URL)) {
      throw new TypeError(`emu.fetch: expected a URL (a string or URL) or a Request, got ${input === null ? 'null' : typeof input === 'object' ? 'an object' : typeof input}`);
    }
    const request = isRequest(input) ? (init ? withInit(input, init) : input) : new Request(new URL(String(input), origin), init);
    return withLength(await emulator.app.fetch(request));
  };

  const sites = emulator.deps.sites;
  /** The default site's keys and an access token of it (a new one when all are revoked). */
  const defaultKeys = () => {
    const site = sites.defaultSite();
    const token = sites.tokens.list(site.site_id).find((t) => !t.revoked_at) ?? sites.tokens.create(site.site_id);
    return { siteId: site.site_id, siteKey: site.site_key, secretKey: site.secret_key, accessToken: token.token };
  };
  // `emu.site`; the clients read it at each request, so it can follow the default site.
  const keys = defaultKeys();
  const clientOpts = (fetch?: (request: Request) => Promise<Response>): ClientOptions => ({
    baseUrl,
    adminToken,
    fetch,
    unavailable: () => (closed ? CLOSED : null),
    get accessToken() {
      return keys.accessToken;
    },
    get secretKey() {
      return keys.secretKey;
    },
  });
  // The raw client speaks HTTP when there is a port; the helpers always answer in-process.
  // After close, its refusal names the call (emu.client.admin: GET /sites: ...), as a helper's names the helper.
  const client = namedAfterClose(createApiClient(clientOpts(opts.listen === false ? fetchInProcess : undefined)), CLOSED);
  const bus = emulator.deps.bus;
  // waitFor's view of the changes: every webhook event as it changes, and a wake-up for the rest.
  const watch: WatchWebhookEvents = (listener) => {
    const off = bus.subscribe(
      (e) => listener(e.type === 'webhook_event.created' || e.type === 'webhook_event.updated' ? (e.data as unknown as WebhookEvent) : null),
      (type) => type === 'webhook_event.created' || type === 'webhook_event.updated' || type === 'state.replaced',
    );
    const offShutdown = bus.onShutdown(() => listener(null));
    return () => {
      off();
      offShutdown();
    };
  };
  const helpers = createHelpers(createApiClient(clientOpts(fetchInProcess)), () => keys.siteId, watch, () => emulator.clock.mode === 'frozen');
  // Like `vtr clock advance/set`: every delivery scheduled on the way runs at its time before it resolves.
  // A move the clock refuses (a system clock, a time behind it) is named as the other refusals of emu.clock are.
  const move = async (method: string, by: number | (() => number)) => {
    notAfterClose(method);
    try {
      await emulator.deps.advanceClock!(by);
    } catch (err) {
      if (err instanceof ClockError) throw new ClockError(`${method}: ${err.message}`);
      throw err;
    }
  };
  const state = emulator.deps.state!;
  // State loaded through the management API (`PUT /state`, fixed data for a test) has its own default
  // site: `emu.site` and the helpers take it. A reset keeps the default site's keys and token.
  state.onReplaced(() => {
    Object.assign(keys, defaultKeys());
  });
  // Its keys rotated (`POST /sites/{id}/keys/rotate`): `emu.site` and the clients take the new ones.
  const unfollow = bus.subscribe((e) => {
    const site = e.data as { site_id?: string; site_key?: string; secret_key?: string };
    if (site.site_id === keys.siteId && site.site_key && site.secret_key) Object.assign(keys, { siteKey: site.site_key, secretKey: site.secret_key });
  }, (type) => type === 'site.updated');

  return {
    baseUrl,
    site: keys,
    clock: {
      now: () => formatMillis(emulator.clock.now()),
      mode: emulator.clock.mode,
      async advance(d) {
        // The CLI reads a bare number as seconds, this method a number as milliseconds: a number in a
        // string ('1500', read from the environment) would be one or the other a thousand times out.
        if (typeof d === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(d)) {
          throw new TypeError(`emu.clock.advance: ${JSON.stringify(d)} has no unit: give ${d.trim()} (milliseconds) or a duration with its unit ("${d.trim()}ms", "${d.trim()}s")`);
        }
        // "-5s" asks to go back, which no test clock does: say so rather than call it no duration.
        const back = typeof d === 'number' ? d < 0 : typeof d === 'string' && /^\s*-/.test(d) && parseDuration(d.replace('-', '')) != null;
        if (back) {
          const forward = typeof d === 'number' ? String(-d) : `"${d.trim().slice(1)}"`;
          throw new TypeError(`emu.clock.advance: ${shown(d)}: the clock only moves forward; give a positive duration (${forward})`);
        }
        const ms = typeof d === 'number' ? d : typeof d === 'string' ? parseDuration(d) : null;
        // Whole milliseconds, as the clock counts them: a fraction would leave it between two.
        if (ms == null || !Number.isSafeInteger(ms)) throw new TypeError(`emu.clock.advance: expected a duration ("90s", "5m", "1h") or whole milliseconds, got ${shown(d)}`);
        await move('emu.clock.advance', ms);
      },
      async set(ts) {
        const ms = ts instanceof Date ? ts.getTime() : typeof ts === 'string' ? parseTimestamp(ts) : null;
        if (ms == null || Number.isNaN(ms)) throw new TypeError(`emu.clock.set: expected an ISO time ("2030-01-01T00:00:00Z") or a Date, got ${shown(ts)}`);
        await move('emu.clock.set', () => emulator.clock.distanceTo(ms));
      },
    },
    client,
    fetch: fetchInProcess,
    ...helpers,
    /**
     * Empties all state and recreates the default site with the same keys and token: the site's keys,
     * `emu.site.accessToken` (valid again if a test revoked it; the site's other tokens go) and the
     * emulator's own settings (the clock) are kept.
     */
    async reset() {
      notAfterClose('emu.reset');
      // A fresh default site (its settings and rules as on a first start), given the keys and token emu.site has.
      await state.reset({ ...keys });
    },
    async close() {
      if (closed) return;
      closed = true;
      unfollow();
      // A test suite's afterAll: a slow receiver must not hold it for the webhook timeout.
      await emulator.close({ cutAttempts: true });
    },
  };
}

// The composition root: builds the store, clock, services and HTTP app, and runs the server.
import type { AddressInfo } from 'node:net';
import type { IncomingMessage, OutgoingHttpHeader, OutgoingHttpHeaders, Server } from 'node:http';
import { createServer, ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { adapterErrorResponse, missingHost, onClientError, onConnect } from './server/malformed.js';
import type { Hono } from 'hono';
import { clockJson, createClock, type ClockMode } from './domain/clock.js';
import { CLI_OPTION_NAMES, type OptionNames } from './domain/option-names.js';
import { createEventBus } from './events/bus.js';
import { createStore, type Store } from './store/index.js';
import type { SyncMode } from './store/db.js';
import { createFaultLog } from './logs/fault-log.js';
import { watchStorage } from './storage-watch.js';
import { createSessionService } from './sessions/service.js';
import { createSiteService } from './sites/service.js';
import { createCheckService } from './checks/run-check.js';
import { createWebhookSystem } from './webhooks/index.js';
import { createRequestLogger } from './logs/request-logger.js';
import { checkpointWorkerFile, startCheckpointer } from './store/checkpointer.js';
import { createStateService } from './state/service.js';
import { createRuleService } from './rules/service.js';
import { createApp } from './server/app.js';
import type { AppDeps } from './server/deps.js';
import { createWriteQueue } from './server/write-queue.js';
import { countryDb } from './geo/country-db.js';
import { VERSION } from './version.js';
import { realTimers } from './domain/timers.js';
import { parseMicros } from './domain/time.js';

export interface EmulatorOptions {
  /** SQLite file, or ':memory:'. */
  dbPath: string;
  /** Deliver webhooks only once listen() succeeded (`vtr serve`), not from creation. */
  dispatchAfterListen?: boolean;
  clock?: ClockMode;
  adminToken?: string | null;
  rateLimit?: number | null;
  retryBaseMs?: number;
  retrySchedule?: readonly number[] | null;
  retryJitter?: boolean;
  webhookTimeoutMs?: number;
  smtpUrl?: string | null;
  /** SQLite's synchronous setting: `normal` (default) or `full` (see README, Durability). */
  sync?: SyncMode;
  /** Where storage-fault lines go (default stderr); never silenced by --quiet. */
  faultLog?: (line: string) => void;
  /** Where the webhook system's own lines go (an SMTP send that failed, …); default stderr. */
  webhookLog?: (line: string) => void;
  /** Opens the database read-only: for tests of a file that cannot be written. */
  readOnlyDb?: boolean;
  /**
   * The process is vtr's own (`vtr serve`): the HTTP adapter may put its faster Request and Response
   * in place of the global ones. In a test suite's process (the library) the user's globals stay.
   */
  ownProcess?: boolean;
  /** How messages name the settings: `vtr serve`'s flags (default) or startEmulator's options. */
  optionNames?: OptionNames;
}

const CLOCK_OFFSET_KEY = 'clock_offset_ms';
const CLOCK_FROZEN_KEY = 'clock_frozen_ms';

export function createEmulator(opts: EmulatorOptions) {
  const names = opts.optionNames ?? CLI_OPTION_NAMES;
  const store = createStore({ path: opts.dbPath, sync: opts.sync, readOnly: opts.readOnlyDb, dbOption: names.db });
  try {
    return build(opts, names, store);
  } catch (err) {
    // A start that fails here (the default site cannot be written) leaves no database it created.
    store.discardCreated();
    throw store.startFailure(err);
  }
}

function build(opts: EmulatorOptions, names: OptionNames, store: Store) {
  const clockMode = opts.clock ?? 'system';
  // A manual clock keeps its offset across restarts, a frozen one its "now": time never goes back.
  const clockKey = clockMode === 'frozen' ? CLOCK_FROZEN_KEY : CLOCK_OFFSET_KEY;
  const kept = () => (store.db.open ? Number(store.meta.get(clockKey) ?? 0) : 0);
  // `kept`: another server on the same file may move the clock; both then read the same time.
  const clock = createClock(clockMode, clockMode === 'system' ? 0 : kept(), undefined, clockMode === 'system' ? undefined : kept, names);
  clock.onChange(() => store.meta.set(clockKey, String(clock.position())));
  // A frozen clock's first start fixes its time now, not at its first move.
  if (clockMode === 'frozen' && store.meta.get(clockKey) !== String(clock.position())) store.meta.set(clockKey, String(clock.position()));
  // Its readings within the frozen millisecond are counted in memory: a restart goes on after the
  // times already written, instead of stamping new records before them.
  if (clockMode === 'frozen') {
    const latest = store.latestTime();
    const us = latest == null ? null : parseMicros(latest);
    if (us != null) clock.resumeAfter(us);
  }
  const bus = createEventBus({ defer: store.afterCommit });
  // Every move of a manual or frozen clock is on the stream (advance stops at each delivery on the way).
  clock.onChange(() => bus.publish({ type: 'clock.changed', data: { ...clockJson(clock) } }));
  const countryOf = countryDb();
  const sites = createSiteService({ store, clock, bus });
  const sessions = createSessionService({ store, clock, bus, countryOf });
  const webhooks = createWebhookSystem({
    store, clock, bus,
    retryBaseMs: opts.retryBaseMs, retrySchedule: opts.retrySchedule, retryJitter: opts.retryJitter,
    webhookTimeoutMs: opts.webhookTimeoutMs, smtpUrl: opts.smtpUrl, sessions, log: opts.webhookLog, optionNames: names,
  });
  sessions.addHooks(webhooks.trigger);
  const rules = createRuleService({ store, clock, bus });
  sites.onPlanChanged(() => webhooks.dispatcher.kick());
  const requestLog = createRequestLogger({ store, bus, clock });
  const deps: AppDeps = {
    config: { version: VERSION, adminToken: opts.adminToken ?? null, rateLimit: opts.rateLimit ?? null, credentials: names },
    clock,
    bus,
    sites,
    sessions,
    checks: createCheckService({ store, clock, bus, sessions, countryOf, rules }),
    writes: createWriteQueue(store),
    requestLog,
    state: createStateService({ store, clock, sites, clockKey, beforeReset: () => requestLog.settle() }),
    views: webhooks.views,
    rules,
    webhooks: webhooks.webhooks,
    afterClockMove: () => webhooks.dispatcher.runDue(),
    advanceClock: (by) => webhooks.dispatcher.advanceClock(by),
  };
  const bootstrap = sites.bootstrap();
  const app: Hono = createApp(deps);
  let server: Server | null = null;
  // Once close() starts, each answer whose head is not written yet is its connection's last
  // (`Connection: close`): a client sends nothing more on it, so no request of its is cut with the
  // connection. Decided when the head is written (`LastAnswer`), so no request pays for tracking.
  let closing = false;
  const closers: Array<() => Promise<void> | void> = [];
  const lastly: Array<() => Promise<void> | void> = [];
  // Runs last (closers run newest first): log lines still queued reach the database.
  closers.push(() => deps.requestLog?.settle());
  // A database file gets a checkpoint worker (when built; not from sources, not in memory).
  const checkpointFile = store.path === ':memory:' ? null : checkpointWorkerFile();
  if (checkpointFile) {
    const checkpointer = startCheckpointer(store.db, store.path, checkpointFile);
    lastly.push(() => checkpointer.stop());
  }
  // Resumes every due attempt (e.g. after a crash); on close, running attempts finish first.
  if (opts.dispatchAfterListen) webhooks.dispatcher.hold();
  else webhooks.dispatcher.start();
  // An imported file may hold due or scheduled deliveries, and mail waiting for its send: re-arm
  // the dispatcher for them, send it.
  deps.state?.onReplaced((reason) => {
    webhooks.dispatcher.kick();
    webhooks.notifier.resume();
    bus.publish({ type: 'state.replaced', data: { reason } });
  });
  closers.push(() => webhooks.close());
  const faultLine = opts.faultLog ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const storage = watchStorage({
    store,
    log: createFaultLog({ write: faultLine, now: () => Date.now() }),
    onRecovered: () => webhooks.dispatcher.kick(),
    dropped: () => deps.requestLog?.dropped() ?? 0,
  });
  lastly.push(() => storage.stop());

  return {
    deps,
    app,
    store,
    clock,
    /** The default site and its token, when this start created them (first start). */
    bootstrap,
    /**
     * `until`: the port is taken now, but requests wait for it (and no webhook is sent before it):
     * `serve --import` binds first, so a port in use is reported before a long import, and nothing
     * is served from the state the import replaces. Rejected: the waiting connections are cut.
     */
    /** `address`: the one `host` was bound to (a name resolves to one address). */
    async listen(port: number, host: string, until?: Promise<void>): Promise<{ port: number; host: string; address: string }> {
      let ready = until === undefined;
      until?.then(() => void (ready = true), () => undefined);
      server = await new Promise<Server>((resolve, reject) => {
        // Every request goes to the app; only one too malformed for it is answered here.
        const hono = getRequestListener(app.fetch, { errorHandler: adapterErrorResponse, overrideGlobalObjects: opts.ownProcess === true });
        // requireHostHeader off: a request without Host is refused in the contract's JSON shape
        // (missingHost), not with Node's bare 400.
        const handle = (req: IncomingMessage, res: ServerResponse) => {
          if (missingHost(req, res)) return;
          if (ready) void hono(req, res);
          else until!.then(() => void hono(req, res), () => res.destroy());
        };
        class LastAnswer extends ServerResponse {
          override writeHead(status: number, message?: string | OutgoingHttpHeaders | OutgoingHttpHeader[], headers?: OutgoingHttpHeaders | OutgoingHttpHeader[]): this {
            if (closing) this.setHeader('Connection', 'close');
            // Node reads the second argument as the headers when it is not a string.
            return super.writeHead(status, message as string | undefined, headers);
          }
        }
        const s = createServer({ requireHostHeader: false, ServerResponse: LastAnswer }, handle);
        s.on('clientError', onClientError);
        s.on('connect', onConnect);
        // An Expect other than 100-continue is ignored (RFC 9110 allows it), not a bare 417.
        s.on('checkExpectation', handle);
        s.once('error', reject);
        s.listen(port, host, () => resolve(s));
      });
      server.keepAliveTimeout = 5000;
      if (opts.dispatchAfterListen) {
        if (until) until.then(() => webhooks.dispatcher.start(), () => undefined);
        else webhooks.dispatcher.start();
      }
      const addr = server.address() as AddressInfo;
      return { port: addr.port, host, address: addr.address };
    },
    onClose(fn: () => Promise<void> | void) {
      closers.push(fn);
    },
    /** Runs after every onClose hook (in-flight deliveries done), just before the database closes. */
    beforeDbClose(fn: () => Promise<void> | void) {
      lastly.push(fn);
    },
    /**
     * Stops accepting requests, lets in-flight ones finish, closes the database. `cutAttempts`:
     * webhook attempts in flight are ended instead of waited for (they stay due, unrecorded).
     * `failedStart`: the start did not complete; the database files and directories it created go.
     */
    async close(opts: { cutAttempts?: boolean; failedStart?: boolean } = {}): Promise<void> {
      const s = server;
      server = null;
      closing = true;
      // No new connections. Idle ones go after one turn of the event loop: a request already
      // waiting in a connection's buffer is read and answered, not cut with a connection that
      // only looked idle. Event streams stay open while the attempts in flight finish, so a
      // `webhooks tail` sees their results before the stream ends.
      const closed = s ? stopListening(s) : null;
      // The dispatcher starts no attempt from here on (a clock move in progress stops where it is).
      const attemptsDone = webhooks.dispatcher.close({ cut: opts.cutAttempts });
      if (s) await new Promise((resolve) => realTimers.setImmediate(() => realTimers.setImmediate(resolve)));
      s?.closeIdleConnections?.();
      await attemptsDone;
      // End event streams (over HTTP they would hold the server open; in process, `listen: false`,
      // their readers would wait forever).
      bus.shutdown();
      if (s) {
        // A connection whose stream or request just ended is idle, but nothing closes it (a client
        // keeps it alive): sweep them until the server is closed. Whatever is still open after the
        // grace period is cut.
        const sweep = realTimers.setInterval(() => s.closeIdleConnections?.(), 10);
        realTimers.setTimeout(() => s.closeAllConnections?.(), 2000).unref();
        await closed;
        realTimers.clearInterval(sweep);
      }
      for (const fn of closers.reverse()) await fn();
      for (const fn of lastly) await fn();
      if (opts.failedStart) store.discardCreated();
      else store.close();
    },
  };
}

export type Emulator = ReturnType<typeof createEmulator>;

/**
 * server.close() without the closing of idle connections it starts with (Node 19+): close() runs
 * that a turn later. Resolves once the server is closed.
 */
function stopListening(s: Server): Promise<void> {
  const closeIdle = s.closeIdleConnections;
  s.closeIdleConnections = () => undefined;
  try {
    return new Promise<void>((resolve) => s.close(() => resolve()));
  } finally {
    s.closeIdleConnections = closeIdle;
  }
}

/**
 * Why `listen` failed, as its caller's message says it (Node's own words name neither the flag or
 * option nor the fix): the port is taken, the port needs privileges, or the host is no address of
 * this machine. Null: another failure, passed on as it is.
 */
export function listenProblem(err: unknown): { kind: 'in_use' | 'denied' | 'no_such_host'; code: string } | null {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') return { kind: 'in_use', code };
  // Ports below 1024 need privileges on most systems.
  if (code === 'EACCES' || code === 'EPERM') return { kind: 'denied', code };
  if (code === 'ENOTFOUND' || code === 'EADDRNOTAVAIL' || code === 'EAI_AGAIN') return { kind: 'no_such_host', code };
  return null;
}

import { resolve } from 'node:path';
import { bare, type CliContext } from '../../context.js';
import { OperationError, UsageError } from '../../errors.js';
import { fileToRead, fileToWrite } from '../../file-paths.js';
import { wholeNumber } from '../../whole-number.js';
import { parseDuration } from '../../../domain/time.js';
import { MAX_WEBHOOK_TIMEOUT_MS } from '../../../domain/retry-policy.js';
import { bindAddress, isLoopbackBind } from '../../../domain/ip-intel.js';
import { hostWithPort } from '../../../domain/host-with-port.js';
import { isSmtpUrl } from '../../../domain/smtp-url.js';
import { startedByNpm, watchParent } from '../../parent-watch.js';
import { ownStdout, readerGone } from '../../stdout-owner.js';

export interface ServeOptions {
  port: string;
  host: string;
  /** Absent (`vtr exec` without --db): in memory. */
  db?: string;
  memory?: boolean;
  sync?: 'normal' | 'full';
  clock: 'system' | 'manual' | 'frozen';
  retryBase: string;
  retrySchedule?: string;
  retryJitter?: boolean;
  webhookTimeout: string;
  smtp?: string;
  rateLimit?: string;
  import?: string;
  exportOnExit?: string;
  log: 'pretty' | 'json';
  adminToken?: string;
}

function duration(flag: string, value: string, min = 0): number {
  const ms = parseDuration(value);
  if (ms == null) throw new UsageError(`${flag}: "${value}" is not a duration; use e.g. 500ms, 2s, 5m, 1h`);
  if (ms < min) throw new UsageError(`${flag}: "${value}" is too short; give at least ${min} ms, e.g. 500ms or 2s`);
  return ms;
}

function webhookTimeout(value: string): number {
  const ms = duration('--webhook-timeout', value, 1);
  if (ms > MAX_WEBHOOK_TIMEOUT_MS) throw new UsageError(`--webhook-timeout: "${value}" is too long; give at most 24h, e.g. 10s or 2m`);
  return ms;
}

/** A --host written as a URL or with its port: said with the flags to give instead. */
function refuseHostWithPort(host: string): void {
  const h = hostWithPort(host);
  if (!h) return;
  const port = h.port ? ` --port ${h.port}` : '';
  throw new UsageError(h.url
    ? `--host ${host}: give an address or name, not a URL, e.g. --host ${h.address}${port}`
    : `--host ${host}: give the address alone and the port with --port, e.g. --host ${h.address}${port}`);
}

export function parseServeOptions(o: ServeOptions, env: NodeJS.ProcessEnv) {
  // "" (an unset $PORT) is no free port, and "0x50" no port 80.
  const port = wholeNumber('--port', o.port, 0, 65535, 'is not a port number (0-65535; 0 for a free port)');
  if (!o.host.trim()) throw new UsageError('--host: give an address to listen on, e.g. 127.0.0.1 (the default), or 0.0.0.0 with --admin-token');
  refuseHostWithPort(o.host.trim());
  // Trimmed as the CLI trims the token it sends (a CRLF file's line ending is not part of it).
  const adminToken = o.adminToken?.trim() || bare(env.VTR_ADMIN_TOKEN) || null;
  if (!isLoopbackBind(o.host) && !adminToken) {
    throw new UsageError(`--host ${o.host} is not a loopback address: the management API would be open to the network. Add --admin-token <secret> (or VTR_ADMIN_TOKEN) to require it.`);
  }
  // Blank too (an unset variable in quotes): it started on a database that kept nothing across starts.
  if (o.db?.trim() === '') throw new UsageError('--db: give a file name (or --memory to keep nothing)');
  // Left empty, it would start with nothing imported while the user expects the file's state.
  if (o.import != null) fileToRead('--import', o.import, 'the file a state export was written to');
  const schedule = o.retrySchedule?.split(',').map((s) => duration('--retry-schedule', s));
  if (schedule && schedule.length !== 5) throw new UsageError('--retry-schedule: give exactly five delays, e.g. 5s,5m,30m,2h,5h');
  let rateLimit: number | null = null;
  if (o.rateLimit != null) {
    rateLimit = wholeNumber('--rate-limit', o.rateLimit, 1, Number.MAX_SAFE_INTEGER, 'is not a whole number of requests per second from 1, e.g. 100');
  }
  if (o.smtp && !isSmtpUrl(o.smtp)) throw new UsageError(`--smtp: "${o.smtp}" is not an smtp:// URL, e.g. smtp://127.0.0.1:1025`);
  const dbPath = o.memory || o.db === undefined ? ':memory:' : o.db;
  // The export is written over its path just before the database closes: over the database itself
  // (or its -wal/-shm) it would leave a JSON file where the state was.
  if (o.exportOnExit && dbPath !== ':memory:' && ['', '-wal', '-shm'].some((end) => resolve(o.exportOnExit!) === resolve(`${dbPath}${end}`))) {
    throw new UsageError(`--export-on-exit: ${o.exportOnExit} is the database (--db ${dbPath}); give another file, e.g. state.json`);
  }
  return {
    port,
    host: bindAddress(o.host),
    dbPath,
    sync: o.sync ?? 'normal',
    clock: o.clock,
    adminToken,
    rateLimit,
    retryBaseMs: duration('--retry-base', o.retryBase, 1),
    retrySchedule: schedule ?? null,
    retryJitter: !!o.retryJitter,
    webhookTimeoutMs: webhookTimeout(o.webhookTimeout),
    smtpUrl: o.smtp ?? null,
    importFile: o.import ?? null,
    exportOnExit: o.exportOnExit == null ? null : fileToWrite('--export-on-exit', o.exportOnExit),
    log: o.log,
  };
}

/** The signals that stop `serve` (and `exec`) cleanly. */
export const STOP_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * After a SIGHUP, once all is closed: die of it, as a program whose terminal went away does. An
 * ordinary exit would have Node restore the settings of a terminal that is gone, and abort.
 */
export function dieOfHangup(): void {
  process.kill(process.pid, 'SIGHUP');
}

export async function run(o: ServeOptions, ctx: CliContext): Promise<void> {
  const opts = parseServeOptions(o, process.env);
  const parent = process.ppid;
  const { startServer } = await import('../../../serve.js');
  // The handlers go in before the banner is printed: whoever reads the banner may signal at once, and
  // a signal with no handler yet would kill the process (no clean close, no exit 0).
  let requested: string | null = null;
  let stop = (signal: string) => void (requested ??= signal);
  const onSignal = (signal: NodeJS.Signals) => stop(signal);
  // `on`, not `once`: a second signal while closing (a script's `trap 'kill $PID' EXIT` on top of its
  // own kill) must not fall through to Node's default, which kills without the clean close.
  // SIGHUP: the terminal it ran in was closed; the export and the clean close are still wanted.
  for (const sig of STOP_SIGNALS) process.on(sig, onSignal);
  // The start line (or banner) is what a script waits for: when it cannot be written (a full disk
  // under `> serve.json`), the emulator stops and says why. A reader that went away (`| head -1`)
  // only loses the rest of the output: it keeps serving.
  ownStdout();
  let unwritable: Error | null = null;
  const out = (line: string) =>
    ctx.io.stdout.write(`${line}\n`, (err) => {
      if (!err || readerGone(err) || unwritable) return;
      unwritable = err;
      stop('its output cannot be written');
    });
  let running: Awaited<ReturnType<typeof startServer>>;
  const stopped = (signal: string) => {
    for (const sig of STOP_SIGNALS) process.off(sig, onSignal);
    ctx.info('vtr: stopped');
    if (signal === 'SIGHUP') dieOfHangup();
  };
  try {
    // --quiet also silences the per-request lines of --log, and notes such as the export's.
    running = await startServer(ctx.config.quiet ? { ...opts, log: undefined } : opts, {
      out,
      log: (line) => ctx.io.stderr.write(`${line}\n`),
      note: (line) => ctx.info(line),
      json: ctx.config.json,
    }, () => requested !== null);
  } catch (err) {
    for (const sig of STOP_SIGNALS) process.off(sig, onSignal);
    throw err;
  }
  if (!running) {
    // Stopped during --import: no banner, nothing more to close.
    const signal = requested ?? 'SIGINT';
    ctx.info(`vtr: ${signal.startsWith('SIG') ? `${signal} received` : signal}, finishing in-flight work…`);
    return stopped(signal);
  }
  const server = running;
  await new Promise<void>((resolve) => {
    let stopping = false;
    stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      ctx.info(`vtr: ${signal.startsWith('SIG') ? `${signal} received` : signal}, finishing in-flight work…`);
      void server.close().then(() => {
        stopped(signal);
        resolve();
      });
    };
    if (requested) stop(requested);
    if (startedByNpm(process.env)) watchParent(parent, () => stop('npm, which started vtr, has exited'));
  });
  if (unwritable) throw new OperationError(`cannot write to stdout: ${(unwritable as Error).message}`);
}

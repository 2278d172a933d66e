// `vtr serve`: an emulator bound to a port, with its start-up banner.
import { createReadStream } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { resolve } from 'node:path';
import { createEmulator, listenProblem, type Emulator, type EmulatorOptions } from './emulator.js';
import { VtrError } from './domain/errors.js';
import { behindNote } from './domain/time.js';
import { stateSummary } from './domain/state-summary.js';
import type { SiteService } from './sites/service.js';
import { createServeLog } from './serve-log.js';
import { endsEarly } from './domain/json-text.js';
import { reachableHost } from './domain/ip-intel.js';
import { writeAtomically } from './write-file.js';

export interface ServeConfig extends EmulatorOptions {
  port: number;
  host: string;
  importFile?: string | null;
  exportOnExit?: string | null;
  log?: 'pretty' | 'json';
}

export interface ServeOutput {
  out(line: string): void;
  log(line: string): void;
  /** A failure the user must see even when `log` is silent (`vtr exec` without --log); default `log`. */
  error?(line: string): void;
  /** A note that --quiet silences (the export written); default `log`. */
  note?(line: string): void;
  json?: boolean;
}

function defaultSiteKeys(sites: SiteService) {
  try {
    const site = sites.defaultSite();
    const token = sites.tokens.list(site.site_id).find((t) => !t.revoked_at)?.token ?? null;
    return { site_id: site.site_id, site_key: site.site_key, secret_key: site.secret_key, access_token: token };
  } catch {
    return null; // no site at all (an imported file without one)
  }
}

/**
 * `stopRequested`: whether a stop signal came meanwhile. Asked around a long --import: a stop then
 * closes the emulator and answers null (no banner), the file imported whole or not at all.
 */
export async function startServer(cfg: ServeConfig, io: ServeOutput, stopRequested: () => boolean = () => false) {
  // A young-generation collection here copies ~100 KB of survivors: helper threads buy nothing, and
  // on a machine busy with the app and its tests the pause waits for them to be scheduled. Under a
  // flood of checks: 1.0-1.5 ms single-threaded against 1.5-3.7 ms (docs/performance.md).
  setFlagsFromString('--no-parallel-scavenge');
  // Every line of the emulator's own goes through `io.log`: `vtr exec` shows them only with --log.
  const emulator = createEmulator({ ...cfg, dispatchAfterListen: true, ownProcess: true, webhookLog: io.log, faultLog: cfg.faultLog ?? io.log });
  let addr: { port: number; host: string; address: string };
  let imported: Awaited<ReturnType<typeof importState>> | null = null;
  // The port first: a port in use is said at once, not after a long import. Requests that come
  // meanwhile wait for the import and see only its state.
  let importEnded: (failed?: unknown) => void = () => undefined;
  const importing = cfg.importFile
    ? new Promise<void>((resolve, reject) => void (importEnded = (failed) => (failed === undefined ? resolve() : reject(failed))))
    : undefined;
  try {
    addr = await emulator.listen(cfg.port, cfg.host, importing);
  } catch (err) {
    await emulator.close({ failedStart: true });
    throw listenFailure(err, cfg);
  }
  if (cfg.importFile) {
    try {
      imported = await importState(emulator, cfg.importFile, stopRequested);
      // The import's one transaction could not be stopped: what came during it is seen now.
      await turn();
      if (stopRequested()) throw new Stopped();
      importEnded();
    } catch (err) {
      importEnded(err);
      // A stop is no failure: the database stays, the file imported whole or not at all.
      await emulator.close({ failedStart: !(err instanceof Stopped) });
      if (err instanceof Stopped) return null;
      throw err;
    }
  }
  // A wildcard bind is reached locally through loopback; print that, not 0.0.0.0. `localhost` is
  // printed as the address it was bound to, which every client reaches.
  const origin = `http://${reachableHost(addr.host, addr.address)}:${addr.port}`;
  const baseUrl = `${origin}/api/v1`;
  // An import replaced whatever a first start created; it made a default site only if the file had none.
  const boot = imported ? imported.created : emulator.bootstrap;
  let exportFailed = false;
  if (cfg.exportOnExit) {
    const file = cfg.exportOnExit;
    // After in-flight deliveries finish, so the file has their outcome.
    emulator.beforeDbClose(async () => {
      try {
        await writeAtomically(file, emulator.deps.state!.exportBytes().chunks());
        (io.note ?? io.log)(`vtr: state exported to ${file}`);
      } catch (err) {
        // One line, and the database still closes cleanly; the exit status says it failed.
        (io.error ?? io.log)(`vtr: error: --export-on-exit: could not write ${file}: ${(err as Error).message}`);
        exportFailed = true;
        process.exitCode = 1;
      }
    });
  }
  if (cfg.log) {
    const serveLog = createServeLog(cfg.log, (lines) => io.log(lines), emulator.clock.mode !== 'system');
    emulator.deps.bus.subscribe((e) => {
      if (e.type === 'request.logged') serveLog.entry(e.data);
    }, (type) => type === 'request.logged');
    emulator.beforeDbClose(() => serveLog.close());
  }
  if (io.json) {
    io.out(JSON.stringify({
      // Absolute (db and imported.file): a script reads them from wherever it runs, not from serve's directory.
      base_url: baseUrl, console_url: `${origin}/`, db: cfg.dbPath === ':memory:' ? cfg.dbPath : resolve(cfg.dbPath), clock: emulator.clock.mode,
      imported: imported ? { file: resolve(cfg.importFile!), tables: imported.counts, clock_behind_ms: imported.clockBehindMs } : null,
      site: boot ? { site_id: boot.site.site_id, site_key: boot.site.site_key, secret_key: boot.site.secret_key, access_token: boot.token.token } : null,
      // On every start (site is only the one this start created): a script reusing a database reads
      // its keys here instead of `null`.
      default_site: defaultSiteKeys(emulator.deps.sites),
    }));
  } else {
    io.out(`vtr emulator listening on ${origin}`);
    io.out(`  public API   ${baseUrl}`);
    io.out(`  console      ${origin}/`);
    io.out(`  database     ${cfg.dbPath === ':memory:' ? 'in memory (nothing is kept)' : cfg.dbPath}`);
    io.out(`  clock        ${emulator.clock.mode}`);
    if (imported) {
      io.out('');
      io.out(`Imported ${cfg.importFile}: ${stateSummary(imported.counts)}.`);
      if (imported.clockBehindMs) io.out(behindNote(imported.clockBehindMs));
      if (!boot) io.out('Keys: `vtr sites list` and `vtr keys show`; tokens: `vtr tokens list`.');
    }
    if (boot) {
      io.out('');
      io.out(`Created the default site "${boot.site.name}" (${boot.site.site_id}):`);
      io.out(`  site key     ${boot.site.site_key}`);
      io.out(`  secret key   ${boot.site.secret_key}`);
      io.out(`  access token ${boot.token.token}`);
    } else if (!imported) {
      io.out('');
      io.out('Keys: `vtr sites list` and `vtr keys show`; tokens: `vtr tokens list`.');
    }
    if (origin !== 'http://127.0.0.1:8787') io.out(`\nPoint the CLI at it: export VTR_BASE_URL=${baseUrl}`);
  }
  return {
    emulator,
    baseUrl,
    /** The default site's keys and first live token (null when there is no default site). */
    defaultSite: () => defaultSiteKeys(emulator.deps.sites),
    close: () => emulator.close(),
    /** After close: whether --export-on-exit could not write its file. */
    exportFailed: () => exportFailed,
  };
}

/** Why the server could not listen, naming the flag to change and how. */
export function listenFailure(err: unknown, cfg: { port: number; host: string }): Error {
  const problem = listenProblem(err);
  switch (problem?.kind) {
    case 'in_use':
      return new Error(`port ${cfg.port} on ${cfg.host} is in use (another \`vtr serve\`?); use --port 0 for a free port, or --port <n> for another`);
    case 'denied':
      return new Error(`port ${cfg.port} on ${cfg.host}: permission denied (${problem.code}); use --port 0 for a free port, or a port above 1023`);
    case 'no_such_host':
      return new Error(`--host ${cfg.host}: cannot listen there (${problem.code}): give a name or address of this machine, e.g. 127.0.0.1`);
    default:
      return err as Error;
  }
}

/** Closing the emulator is the caller's job (startServer's catch). */
class ImportFailed extends Error {}
/** A stop signal came during --import. */
class Stopped extends Error {}

/**
 * A full turn of the event loop: the signal handlers held back by synchronous work run. Two
 * setImmediates, since a signal is read in the poll phase, which comes between two of them.
 */
const turn = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));

async function importState(emulator: Emulator, file: string, stopRequested: () => boolean) {
  // Read as it is parsed, a row at a time (the state service stages it): memory stays flat
  // whatever the file's size, and a stop signal is seen between chunks, before anything is replaced.
  const progress = { chars: 0, content: false };
  const empty = () => new ImportFailed(`--import ${file}: not JSON (it is empty)`);
  try {
    return await emulator.deps.state!.importStream(createReadStream(file), { utf16: true, progress, stopped: stopRequested, stop: () => new Stopped(), empty });
  } catch (err) {
    if (err instanceof Stopped || err instanceof ImportFailed) throw err;
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'ENOENT') throw new ImportFailed(`--import ${file}: no such file`);
    if (e.code === 'EISDIR') throw new ImportFailed(`--import ${file}: it is a directory; give the file a state export was written to`);
    if (err instanceof VtrError && err.code === 'invalid_json') {
      const detail = err.message.replace(/^the body is not valid JSON:?\s*/, '');
      const why = !progress.content ? 'it is empty' : /Unexpected end of JSON input/.test(detail) ? endsEarly(progress.chars) : detail;
      throw new ImportFailed(`--import ${file}: not JSON (${why})`);
    }
    // The answer a request would get speaks of requests and of writes resuming; serve is stopping.
    if (err instanceof VtrError && err.code === 'insufficient_storage') {
      throw new ImportFailed(`--import ${file}: the database ${emulator.store.path} has no room for it: its disk (or the file's size limit) is full (${String(err.details?.cause)}); nothing was imported. Free space on that volume, or pass another --db`);
    }
    throw new ImportFailed(`--import ${file}: ${err instanceof VtrError ? err.message : (err as Error).message}`);
  }
}

// `vtr exec`: an emulator for the length of one command. The command gets the emulator's base URL
// and the default site's credentials in its environment, so it never talks to another server (a
// developer's `vtr serve` on 8787, say) by accident.
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { constants } from 'node:os';
import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { dieOfHangup, parseServeOptions, STOP_SIGNALS, type ServeOptions } from '../serve/serve.js';
import { startedByNpm, watchParent } from '../../parent-watch.js';
import { terminalSignalsReach } from '../../terminal-group.js';
import { ownStdout } from '../../stdout-owner.js';

export interface ExecOptions extends Omit<ServeOptions, 'log'> {
  log?: 'pretty' | 'json';
  args: [string[]];
}

/** The child's exit code as a shell reports it: its own code, or 128 + N when signal N ended it. */
export function exitCodeOf(code: number | null, signal: NodeJS.Signals | null): number {
  if (code !== null) return code;
  const n = signal ? constants.signals[signal] : undefined;
  return n ? 128 + n : 1;
}

export async function run(o: ExecOptions, ctx: CliContext): Promise<void> {
  const [command, ...args] = o.args[0] ?? [];
  if (!command) throw new UsageError('<command>: give the command to run after --, e.g. `vtr exec -- npm test`');
  // The command's stdout is its own (it inherits it): a write of its that fails is its to report.
  ownStdout();
  const parent = process.ppid;
  const opts = parseServeOptions({ ...o, log: o.log ?? 'pretty' }, process.env);
  let forward: (signal: NodeJS.Signals) => void = () => {};
  let hungUp = false;
  // A signal before the command runs (a CI job cancelled during a long --import) stops it from running.
  let beforeStart: NodeJS.Signals | null = null;
  const onSignal = (signal: NodeJS.Signals) => {
    if (signal === 'SIGHUP') hungUp = true;
    beforeStart ??= signal;
    forward(signal);
  };
  // In before the emulator starts, and kept until it has closed: a signal with no handler would
  // kill vtr without the clean close; a second Ctrl-C or SIGTERM while it finishes its deliveries
  // and writes --export-on-exit must not fall through to Node's default (exit 130/143, no export).
  // SIGHUP (the terminal closed) too: the command gets it, the emulator still closes and exports.
  for (const sig of STOP_SIGNALS) process.on(sig, onSignal);
  const stopListening = () => {
    for (const sig of STOP_SIGNALS) process.off(sig, onSignal);
  };
  const logLine = (line: string) => ctx.io.stderr.write(`${line}\n`);
  let running: Awaited<ReturnType<typeof import('../../../serve.js').startServer>>;
  try {
    const { startServer } = await import('../../../serve.js');
    // Throws (exit 1, the command not run) when the emulator cannot start: port in use, bad --import...
    running = await startServer({ ...opts, log: o.log && !ctx.config.quiet ? o.log : undefined }, {
      out: () => {},
      log: (line) => {
        if (o.log) logLine(line);
      },
      error: logLine,
    }, () => beforeStart !== null);
  } catch (err) {
    stopListening();
    throw err;
  }
  if (beforeStart || !running) {
    ctx.info(`vtr: ${beforeStart} received while the emulator was starting: ${command} was not run`);
    await running?.close();
    stopListening();
    if (hungUp) dieOfHangup();
    process.exitCode = exitCodeOf(null, beforeStart!);
    return;
  }
  const site = running.defaultSite();
  const env: NodeJS.ProcessEnv = { ...process.env };
  // Credentials inherited from the shell belong to another server: none of them may stand in for a
  // key this emulator lacks (a default site without a live token, or no default site).
  for (const name of ['VTR_SITE', 'VTR_SITE_KEY', 'VTR_SECRET_KEY', 'VTR_ACCESS_TOKEN']) delete env[name];
  Object.assign(env, {
    VTR_BASE_URL: running.baseUrl,
    ...(site && {
      VTR_SITE: site.site_id,
      VTR_SITE_KEY: site.site_key,
      VTR_SECRET_KEY: site.secret_key,
      ...(site.access_token && { VTR_ACCESS_TOKEN: site.access_token }),
    }),
    ...(opts.adminToken && { VTR_ADMIN_TOKEN: opts.adminToken }),
  });
  const code = await new Promise<number>((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', env });
    forward = (signal) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      // Ctrl-C on the terminal reached the command already: sent again, it would be a second one.
      if (signal === 'SIGINT' && child.pid !== undefined && terminalSignalsReach(child.pid)) return;
      child.kill(signal);
    };
    const unwatch = startedByNpm(process.env) ? watchParent(parent, () => forward('SIGTERM')) : () => {};
    const done = (n: number) => {
      unwatch();
      resolve(n);
    };
    child.once('error', (err: NodeJS.ErrnoException) => {
      ctx.io.stderr.write(`vtr: error: cannot run ${command}: ${whyNotRun(command, err)}\n`);
      // The shell's code for a command that could not be found or run.
      done(err.code === 'ENOENT' ? 127 : 126);
    });
    child.once('exit', (c, s) => done(exitCodeOf(c, s)));
  });
  await running.close();
  stopListening();
  if (hungUp) dieOfHangup();
  // A command that passed, whose state could not be exported, must not pass the job.
  process.exitCode = code === 0 && running.exportFailed() ? 1 : code;
}

/** Why the command could not be started, with the fix when there is one (not Node's "spawn x EACCES"). */
function whyNotRun(command: string, err: NodeJS.ErrnoException): string {
  if (err.code === 'ENOENT') {
    // A bare name is looked up on PATH only, as a shell does: the file next to it needs ./.
    if (!command.includes('/') && isFile(command)) return `command not found (it is not on PATH); the file in this directory runs as ./${command}: vtr exec -- ./${command}`;
    return 'command not found';
  }
  if (err.code !== 'EACCES') return err.message;
  if (isDirectory(command)) return 'it is a directory';
  return `it is not executable; chmod +x ${command}, or give its interpreter: vtr exec -- sh ${command}`;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

import { Option, type Command } from 'commander';
import { commandPath } from '../../run-command.js';

/** Flags that cannot go together (sorted, space-separated) → what each does and which to keep. */
const CONFLICTS: Record<string, (path: string) => string> = {
  '--db --memory': () => '--memory keeps nothing, --db keeps the state in that file; give one of them',
  '--retry-base --retry-schedule': (path) =>
    `--retry-schedule sets all five retry delays, --retry-base only the first (each next one doubles); give one of them, e.g. \`${path} --retry-schedule 5s,5m,30m,2h,5h\``,
};

/**
 * The emulator's options, shared by `vtr serve` and `vtr exec` (whose defaults differ: an exec'd
 * emulator lives in memory on a free port unless told otherwise).
 */
export function addServeOptions(cmd: Command, defaults: { port: string; db?: string }): Command {
  // _conflictingOption is commander's (untyped) hook; its own words name neither what each flag does nor which to keep.
  const c = cmd as Command & { _conflictingOption(option: Option, other: Option): void };
  c._conflictingOption = (option: Option, other: Option) => {
    const pair = [option.long ?? option.flags, other.long ?? other.flags].sort();
    const why = CONFLICTS[pair.join(' ')]?.(commandPath(cmd)) ?? 'give one of them';
    cmd.error(`error: ${pair[0]} and ${pair[1]} cannot be given together: ${why} (see \`${commandPath(cmd)} --help\`)`, { exitCode: 2, code: 'commander.conflictingOption' });
  };
  return cmd
    .option('-p, --port <port>', 'port to listen on (0: a free port)', defaults.port)
    .option('--host <host>', 'address to bind (non-loopback needs --admin-token)', '127.0.0.1')
    // Only a --db given on the command line conflicts with --memory (commander ignores defaults).
    .addOption(new Option('--db <file>', defaults.db ? 'SQLite database file' : 'SQLite database file (default: in memory)').default(defaults.db).conflicts('memory'))
    .option('--memory', 'keep state in memory only (nothing is written)')
    .addOption(new Option('--sync <mode>', 'normal: a commit survives a crash of vtr; full: also a power cut (an fsync per commit)').choices(['normal', 'full']).default('normal'))
    .addOption(new Option('--clock <mode>', 'system time; frozen: a test clock that moves only with `vtr clock advance`; manual: real time plus what `vtr clock advance` adds').choices(['system', 'manual', 'frozen']).default('system'))
    .option('--retry-base <duration>', 'first retry delay; each next one doubles (or --retry-schedule, not both)', '2s')
    // Given together, one would be ignored: only a --retry-base typed out conflicts (not its default).
    .addOption(new Option('--retry-schedule <list>', 'all five retry delays, e.g. 5s,5m,30m,2h,5h; replaces --retry-base (not both)').conflicts('retryBase'))
    .option('--retry-jitter', 'add up to ±20% random jitter to retry delays')
    .option('--webhook-timeout <duration>', 'time a receiver has to answer', '10s')
    .option('--smtp <url>', 'also send notification emails to this SMTP server, e.g. smtp://127.0.0.1:1025')
    // Also a global option (the client's credential); here it is what the server requires.
    .option('--admin-token <token>', 'require this token on non-loopback binds and for the management API/console (env VTR_ADMIN_TOKEN)')
    .option('--rate-limit <n>', 'public API requests per second per client before 429')
    .option('--import <file>', 'load a `vtr state export` file on start')
    .option('--export-on-exit <file>', 'write a state export when stopping');
}

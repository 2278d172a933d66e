import { Command, Option } from 'commander';
import { action } from '../../run-command.js';
import { examples } from '../../help.js';

export function registerServe(program: Command): void {
  const cmd = program
    .command('serve')
    .description('run the local emulator (public API, agent, management API, console) on SQLite')
    .option('-p, --port <port>', 'port to listen on', '8787')
    .option('--host <host>', 'address to bind (non-loopback needs --admin-token)', '127.0.0.1')
    .option('--db <file>', 'SQLite database file', '.vtr/vtr.db')
    .option('--memory', 'keep state in memory only (nothing is written)')
    .addOption(new Option('--clock <mode>', 'system time; frozen: a test clock that moves only with `vtr clock advance`; manual: real time plus what `vtr clock advance` adds').choices(['system', 'manual', 'frozen']).default('system'))
    .option('--retry-base <duration>', 'first retry delay; each next one doubles', '2s')
    .option('--retry-schedule <list>', 'all five retry delays, e.g. 5s,5m,30m,2h,5h')
    .option('--retry-jitter', 'add up to ±20% random jitter to retry delays')
    .option('--webhook-timeout <duration>', 'time a receiver has to answer', '10s')
    .option('--smtp <url>', 'also send notification emails to this SMTP server, e.g. smtp://127.0.0.1:1025')
    // Also a global option (the client's credential); here it is what the server requires.
    .option('--admin-token <token>', 'require this token on non-loopback binds and for the management API/console (env VTR_ADMIN_TOKEN)')
    .option('--rate-limit <n>', 'public API requests per second per client before 429')
    .option('--import <file>', 'load a `vtr state export` file on start')
    .option('--export-on-exit <file>', 'write a state export when stopping')
    .addOption(new Option('--log <format>', 'request log format on stderr').choices(['pretty', 'json']).default('pretty'))
    .action(action(() => import('./serve.js')));
  examples(cmd, ['vtr serve', 'vtr serve --port 9000 --memory', 'vtr serve --clock frozen', 'vtr serve --clock manual --retry-base 1s', 'vtr serve --host 0.0.0.0 --admin-token s3cret']);
}

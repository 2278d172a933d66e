import { Command, Option } from 'commander';
import { action } from '../../run-command.js';
import { examples } from '../../help.js';
import { addServeOptions } from './options.js';

export function registerServe(program: Command): void {
  const cmd = addServeOptions(
    program.command('serve').description('run the local emulator (public API, agent, management API, console) on SQLite'),
    { port: '8787', db: '.vtr/vtr.db' },
  )
    .addOption(new Option('--log <format>', 'request log format on stderr').choices(['pretty', 'json']).default('pretty'))
    .action(action(() => import('./serve.js'), { siteless: 'serves every site of its database' }));
  examples(cmd, ['vtr serve', 'vtr serve --port 9000 --memory', 'vtr serve --port 0 --json', 'vtr serve --clock frozen', 'vtr serve --clock manual --retry-base 1s', 'vtr serve --host 0.0.0.0 --admin-token s3cret']);
}

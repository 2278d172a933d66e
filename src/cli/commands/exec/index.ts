import { Command, Option } from 'commander';
import { action } from '../../run-command.js';
import { examples } from '../../help.js';
import { addServeOptions } from '../serve/options.js';

export function registerExec(program: Command): void {
  const cmd = addServeOptions(
    program
      .command('exec')
      .description('run a command against a fresh emulator (in memory, on a free port), then stop it; exits with the command\'s code')
      .argument('<command...>', 'the command and its arguments, after --'),
    { port: '0' },
  )
    .addOption(new Option('--log <format>', "the emulator's request log on stderr (default: the emulator prints nothing)").choices(['pretty', 'json']))
    .action(action(() => import('./exec.js')));
  examples(cmd, [
    'vtr exec -- npm test',
    'vtr exec --clock frozen -- npx vitest run',
    'vtr exec --export-on-exit state.json -- ./e2e.sh',
    "vtr exec -- sh -c 'vtr check --ip 203.0.113.7 --fail-on blocked'",
  ]);
}

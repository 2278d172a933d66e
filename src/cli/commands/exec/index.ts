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
    .action(action(() => import('./exec.js'), { siteless: "gives the command the default site's keys, in VTR_SITE and the rest (the vtr commands it runs take --site)" }));
  // commander's own words would be "missing required argument 'command'", and for `vtr exec node
  // -e 1` "unknown option '-e'": say where the command goes.
  const c = cmd as Command & { unknownOption(flag: string): void; missingArgument(name: string): void };
  const unknownOption = c.unknownOption.bind(c);
  c.unknownOption = (flag: string) => {
    const at = c.args.indexOf(flag);
    if (at <= 0) return unknownOption(flag);
    const line = [...c.args.slice(0, at), flag].join(' ');
    c.error(`error: unknown option '${flag}' for vtr exec: put the command to run after --, e.g. \`vtr exec -- ${line} ...\``, { exitCode: 2, code: 'commander.unknownOption' });
  };
  c.missingArgument = () => c.error('error: no command to run: give it after --, e.g. `vtr exec -- npm test`', { exitCode: 2, code: 'commander.missingArgument' });
  examples(cmd, [
    'vtr exec -- npm test',
    'vtr exec --clock frozen -- npx vitest run',
    'vtr exec --export-on-exit state.json -- ./e2e.sh',
    "vtr exec -- sh -c 'vtr check --ip 203.0.113.7 --fail-on blocked'",
  ]);
}

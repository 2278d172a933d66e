import { Command, Option } from 'commander';
import { action, type RefusedGlobals } from '../../run-command.js';
import { examples, refusesGlobals } from '../../help.js';
import { addServeOptions } from '../serve/options.js';

/**
 * Global flags `vtr exec` would otherwise ignore: the command gets this emulator's address and keys
 * whatever they say, and owns stdout, so a job that meant another server, key or one JSON document
 * must hear it, not run anyway.
 */
const own = (flag: string, variable: string, instead: string): [string, string] =>
  [flag, `\`vtr exec\` starts its own emulator and gives the command its ${variable}; leave ${flag} out (${instead})`];
const REFUSED: RefusedGlobals = {
  baseUrl: own('--base-url', 'VTR_BASE_URL', 'to use a server already running, run the command without `vtr exec`, with VTR_BASE_URL set'),
  secretKey: own('--secret-key', 'VTR_SECRET_KEY', 'give it to the vtr commands the command runs'),
  token: own('--token', 'VTR_ACCESS_TOKEN', 'give it to the vtr commands the command runs'),
  json: ['--json', "the command `vtr exec` runs owns stdout, so it cannot carry one JSON document; give --json to the vtr commands it runs (--log json for the emulator's request log, on stderr)"],
};

export function registerExec(program: Command): void {
  const cmd = addServeOptions(
    program
      .command('exec')
      .description('run a command against a fresh emulator (in memory, on a free port), then stop it; exits with the command\'s code')
      .argument('<command...>', 'the command and its arguments, after --'),
    { port: '0' },
  )
    .addOption(new Option('--log <format>', "the emulator's request log on stderr (default: the emulator prints nothing)").choices(['pretty', 'json']))
    .action(action(() => import('./exec.js'), {
      siteless: "gives the command the default site's keys, in VTR_SITE and the rest (the vtr commands it runs take --site)",
      refuses: REFUSED,
    }));
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
  refusesGlobals(cmd, [...Object.values(REFUSED).map(([flag]) => flag), '--site']);
  // What a CI job writer needs and would otherwise look for in the README: what the command gets, what exec exits with.
  cmd.addHelpText('after', [
    '',
    'The command gets VTR_BASE_URL, VTR_SECRET_KEY, VTR_SITE_KEY, VTR_ACCESS_TOKEN and VTR_SITE (the',
    "emulator's default site; the vtr commands it runs read them). vtr exec exits with the command's",
    'code: 128 + N when signal N ended it, 127 when it was not found, 126 when it could not be run;',
    '1 (the command not run) when the emulator cannot start.',
  ].join('\n'));
  examples(cmd, [
    'vtr exec -- npm test',
    'vtr exec --clock frozen -- npx vitest run',
    'vtr exec --export-on-exit state.json -- ./e2e.sh',
    "vtr exec -- sh -c 'vtr check --ip 203.0.113.7 --fail-on blocked'",
  ]);
}

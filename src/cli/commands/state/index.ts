import type { Command } from 'commander';
import { action } from '../../run-command.js';
import { examples } from '../../help.js';

// State covers every site at once: --site has nothing to pick.
const WHOLE = { siteless: "acts on the whole emulator's state, every site's" };

export function registerState(program: Command): void {
  const state = examples(program.command('state').description("save, load and reset the emulator's whole state (a versioned JSON file)"), [
    'vtr state export demo.json',
    'vtr state import demo.json --yes',
    'vtr state reset --yes',
  ]);
  missingFile(examples(
    state
      .command('export')
      .argument('<file>', 'the file to write, or - for stdout')
      .description('write every site, session, check, view, webhook and event to a file ("-": stdout)')
      .option('-y, --yes', 'overwrite an existing file without asking on a terminal'),
    [
      'vtr state export demo.json',
      'vtr state export - | jq ".tables.sessions | length"',
    ],
  ), 'give the file to write, or - for stdout, e.g. `vtr state export state.json` or `vtr state export - > state.json`').action(action(() => import('./export.js'), WHOLE));
  missingFile(examples(
    state
      .command('import')
      .argument('<file>', 'a file written by `vtr state export`, or - for stdin')
      .description('replace all state with a file written by `vtr state export` ("-": stdin)')
      .option('-y, --yes', 'do not ask for confirmation on a terminal'),
    ['vtr state import demo.json', 'vtr serve --import demo.json   # at start-up'],
  ), 'give a file written by `vtr state export`, or - for stdin, e.g. `vtr state import state.json`').action(action(() => import('./import.js'), WHOLE));
  examples(
    state.command('reset').description('delete all state; the default site comes back as on a first start, with the same id, keys and access token').option('-y, --yes', 'do not ask for confirmation (required without a terminal)'),
    ['vtr state reset --yes'],
  ).action(action(() => import('./reset.js'), WHOLE));
}

/** commander's "missing required argument 'file'" does not say that `-` is stdout (or stdin): say it. */
function missingFile(cmd: Command, hint: string): Command {
  // missingArgument is commander's (untyped) hook for this check.
  (cmd as Command & { missingArgument(name: string): void }).missingArgument = () =>
    cmd.error(`error: missing <file>: ${hint}`, { exitCode: 2, code: 'commander.missingArgument' });
  return cmd;
}

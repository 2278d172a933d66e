import type { Command } from 'commander';
import { action } from '../../run-command.js';
import { examples, neverAsks } from '../../help.js';
import { backwardsMessage, isBackwards } from './backwards.js';

const ONE_CLOCK = { siteless: "is about the emulator's one clock, which every site shares" };

export function registerClock(program: Command): void {
  const clock = examples(program.command('clock').description("show the emulator's clock (move it with advance/set under --clock frozen or manual)"), [
    'vtr clock',
    'vtr clock advance 5m',
    'vtr clock set 2026-12-01T09:00:00',
  ]).action(action(() => import('./show.js'), ONE_CLOCK));
  const advance = neverAsks(examples(
    clock.command('advance <duration>').description('move a frozen or manual clock forward (e.g. 30s, 5m, 3d); deliveries due on the way run, in order, before it returns'),
    ['vtr clock advance 5m', 'vtr clock advance 3d --json'],
  )).action(action(() => import('./advance.js'), ONE_CLOCK));
  // `-5m` reads as an option to commander ("unknown option"); say what is actually wrong with it.
  const a = advance as Command & { unknownOption(flag: string): void };
  const unknownOption = a.unknownOption.bind(a);
  a.unknownOption = (flag: string) => {
    if (!isBackwards(flag)) return unknownOption(flag);
    a.error(`error: ${backwardsMessage(flag)}`, { exitCode: 2, code: 'commander.invalidArgument' });
  };
  neverAsks(examples(
    clock.command('set <timestamp>').description('move a frozen or manual clock forward to a time (ISO 8601, UTC when no zone, or a time as vtr shows it)'),
    ['vtr clock set 2026-12-01T09:00:00', 'vtr clock set 2026-12-01T09:00:00Z --json', 'vtr clock set "2026-12-01 09:00:00 UTC"'],
  )).action(action(() => import('./set.js'), ONE_CLOCK));
}

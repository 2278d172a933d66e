import type { Command } from 'commander';
import { action } from '../../run-command.js';
import { examples } from '../../help.js';

export function registerHealth(program: Command): void {
  examples(
    program.command('health').description("the emulator's health: ok, or degraded while writes fail (a full disk, a read-only database); exit 1 when degraded"),
    ['vtr health', 'vtr health --json'],
  ).action(action(() => import('./health.js'), { siteless: 'checks the whole emulator, not one site' }));
}

import type { Command } from 'commander';
import { action } from '../../run-command.js';
import { examples } from '../../help.js';

export function registerTestValues(program: Command): void {
  examples(
    program
      .command('testvalues')
      .description('print the reserved test values (IPs, user agents, emails, ...) and what they give; no server needed'),
    ['vtr testvalues', 'vtr testvalues --json'],
  ).action(action(() => import('./testvalues.js'), { siteless: 'prints the same test values for every site' }));
}

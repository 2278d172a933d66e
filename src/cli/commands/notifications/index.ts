import type { Command } from 'commander';
import { action } from '../../run-command.js';
import { picksSiteByFlag } from '../../site-by-flag.js';
import { examples } from '../../help.js';

export function registerNotifications(program: Command): void {
  const n = examples(program.command('notifications').description("the emulator's mail outbox (webhook failures and disabling)"), [
    'vtr notifications list',
    'vtr notifications list --full',
  ]);
  examples(
    n
      .command('list')
      .description('notifications, newest first (every site unless --site)')
      .option('-n, --limit <n>', 'at most this many', '50')
      .option('--full', 'print each message with its body'),
    ['vtr notifications list', 'vtr notifications list --full', 'vtr notifications list --json'],
  ).action(action(() => import('./list.js')));
  picksSiteByFlag(n);
}

import type { Command } from 'commander';
import { action } from '../../run-command.js';
import { picksSiteByFlag } from '../../site-by-flag.js';
import { examples } from '../../help.js';

export function registerLogs(program: Command): void {
  const logs = examples(program.command('logs').description('the public-API request log (method, path, status, duration, masked bodies)'), [
    'vtr logs list',
    'vtr logs tail',
  ]);
  examples(
    logs.command('list').description('recent requests, newest first (every site; --site narrows)').option('-n, --limit <n>', 'at most this many', '20'),
    ['vtr logs list', 'vtr logs list --limit 100 --json | jq ".[] | select(.status >= 400)"'],
  ).action(action(() => import('./list.js')));
  examples(logs.command('tail').description('print requests as they happen (reconnects when the emulator restarts; Ctrl-C to stop)'), [
    'vtr logs tail',
    'vtr logs tail --json | jq .path',
  ]).action(action(() => import('./tail.js')));
  picksSiteByFlag(logs);
}

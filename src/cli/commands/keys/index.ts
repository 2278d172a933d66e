import type { Command } from 'commander';
import { action } from '../../run-command.js';
import { picksSiteByFlag } from '../../site-by-flag.js';
import { examples } from '../../help.js';

export function registerKeys(program: Command): void {
  const keys = examples(program.command('keys').description("a site's site key and secret key"), [
    'vtr keys show',
    'vtr keys show --site site_123 --json',
    'vtr keys rotate --yes',
  ]);
  examples(keys.command('show').description('print the site key and secret key'), [
    'vtr keys show',
    'vtr keys show --json | jq -r .secret_key',
  ]).action(action(() => import('./show.js')));
  examples(
    keys
      .command('rotate')
      .description('issue a new site key and secret key; the old ones stop working at once')
      .option('-y, --yes', 'do not ask for confirmation on a terminal'),
    ['vtr keys rotate --yes', 'vtr keys rotate --site site_123 --json'],
  ).action(action(() => import('./rotate.js')));
  picksSiteByFlag(keys);
}

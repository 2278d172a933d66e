import type { Command } from 'commander';
import { action } from '../../run-command.js';
import { examples } from '../../help.js';

export function registerTokens(program: Command): void {
  const tokens = program.command('tokens').description('access tokens (read sessions, add custom events)');
  tokens.command('list').description("list a site's access tokens").option('--all', 'every site').action(action(() => import('./list.js')));
  examples(tokens.command('create').description('create an access token'), [
    'vtr tokens create',
    'export VTR_ACCESS_TOKEN=$(vtr tokens create --json | jq -r .token)',
  ]).action(action(() => import('./create.js')));
  tokens.command('revoke <token>').description('revoke an access token (it answers 401 from then on)').action(action(() => import('./revoke.js')));
}

import type { Command } from 'commander';
import { action } from '../../run-command.js';
import { picksSiteByFlag } from '../../site-by-flag.js';
import { examples, neverAsks } from '../../help.js';

export function registerTokens(program: Command): void {
  const tokens = examples(program.command('tokens').description('access tokens (read sessions, add custom events)'), [
    'vtr tokens list',
    'export VTR_ACCESS_TOKEN=$(vtr tokens create --json | jq -r .token)',
    'vtr tokens revoke at_test_123 --yes',
  ]);
  examples(tokens.command('list').description("list a site's access tokens").option('--all', 'every site'), [
    'vtr tokens list',
    'vtr tokens list --all --json',
  ]).action(action(() => import('./list.js')));
  neverAsks(examples(tokens.command('create').description('create an access token'), [
    'vtr tokens create',
    'export VTR_ACCESS_TOKEN=$(vtr tokens create --json | jq -r .token)',
  ])).action(action(() => import('./create.js')));
  examples(
    tokens
      .command('revoke <token>')
      .description('revoke an access token (it answers 401 from then on)')
      .option('-y, --yes', 'do not ask for confirmation on a terminal'),
    ['vtr tokens revoke at_test_123', 'vtr tokens revoke at_test_123 --yes --json'],
  ).action(action(() => import('./revoke.js')));
  picksSiteByFlag(tokens);
}

import type { Command } from 'commander';
import { action } from '../../run-command.js';
import { picksSiteByFlag } from '../../site-by-flag.js';
import { examples, neverAsks } from '../../help.js';

export function registerViews(program: Command): void {
  const views = examples(program.command('views').description('saved views: filters over sessions that can trigger webhooks'), [
    'vtr views create --name "Bad paid traffic" --filter "risk_level in (suspicious, invalid) and channel = paid" --trigger-webhooks',
    'vtr views list',
    'vtr views delete view_123 --yes',
  ]);
  examples(views.command('list').description("list the site's saved views"), ['vtr views list', 'vtr views list --site site_123 --json']).action(
    action(() => import('./list.js')),
  );
  neverAsks(examples(
    views
      .command('create')
      .description('create a saved view (existing sessions are not evaluated: only later changes trigger)')
      .option('--name <name>', "the view's name (sent as saved_view_name)")
      .option('--filter <filter>', 'filter over Session fields, as in `sessions list --where`')
      .option('--trigger-webhooks', "sessions newly matching it trigger the site's webhooks"),
    [
      'vtr views create --name "Paid bad traffic" --filter "risk_level in (suspicious, invalid) and channel = paid" --trigger-webhooks',
      'vtr views create --name Converted --filter "engagement_level = converted" --trigger-webhooks',
    ],
  )).action(action(() => import('./create.js')));
  neverAsks(examples(
    views
      .command('update <id>')
      .description("change a view's name, filter or trigger")
      .option('--name <name>', 'new name')
      .option('--filter <filter>', 'new filter')
      .option('--trigger-webhooks', 'trigger webhooks')
      .option('--no-trigger-webhooks', 'stop triggering webhooks'),
    ['vtr views update view_123 --filter "risks contains vpn"', 'vtr views update view_123 --no-trigger-webhooks'],
  )).action(action(() => import('./update.js')));
  examples(views.command('delete <id>').description('delete a saved view').option('-y, --yes', 'do not ask for confirmation (required without a terminal)'), [
    'vtr views delete view_123',
    'vtr views delete view_123 --yes',
  ]).action(action(() => import('./delete.js')));
  picksSiteByFlag(views);
}

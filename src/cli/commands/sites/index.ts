import type { Command } from 'commander';
import { action } from '../../run-command.js';
import { examples, neverAsks } from '../../help.js';

function siteFlags(cmd: Command): Command {
  return cmd
    .option('--name <name>', 'display name')
    .option('--plan <plan>', 'free or paid (webhooks need paid)')
    .option('--country <code>', "site's country, ISO 3166-1 alpha-2 (reads local phone numbers)")
    .option('--owner-email <email>', 'where notifications go')
    .option('--conversion-events <names>', 'comma-separated custom events that mean "converted"')
    .option('--bounce-seconds <n>', 'one page view shorter than this is a bounce')
    .option('--excluded-countries <codes>', 'comma-separated countries flagged excluded_country')
    .option('--ip-allowlist <list>', 'comma-separated IPs/CIDRs always rated normal');
}

export function registerSites(program: Command): void {
  const sites = examples(program.command('sites').description('manage sites (plan, country, owner, conversion events, allowlist)'), [
    'vtr sites list',
    'vtr sites create --name Shop --plan paid --country GB --owner-email me@example.com',
    'vtr sites update site_123 --plan free',
  ]);
  examples(sites.command('list').description('list sites with their keys'), ['vtr sites list', 'vtr sites list --json | jq -r \'.[].site_id\'']).action(action(() => import('./list.js'), { siteless: 'lists every site (one site: `vtr sites show <id>`)' }));
  neverAsks(examples(siteFlags(sites.command('create').description('create a site (with new keys)')), [
    'vtr sites create --name Shop --plan paid --country GB --owner-email me@example.com',
  ])).action(action(() => import('./create.js'), { siteless: 'makes a new site' }));
  examples(sites.command('show <id>').description("show a site's settings and keys"), ['vtr sites show site_123', 'vtr sites show site_123 --json']).action(action(() => import('./show.js')));
  neverAsks(examples(siteFlags(sites.command('update <id>').description("change a site's settings")), [
    'vtr sites update site_123 --plan free',
    'vtr sites update site_123 --excluded-countries RU,CN --ip-allowlist 10.0.0.0/8',
  ])).action(action(() => import('./update.js')));
  examples(
    sites.command('delete <id>').description('delete a site and everything in it').option('-y, --yes', 'do not ask for confirmation (required without a terminal)'),
    ['vtr sites delete site_123', 'vtr sites delete site_123 --yes'],
  ).action(action(() => import('./delete.js')));
}

import type { Command } from 'commander';
import { action } from '../../run-command.js';
import { picksSiteByFlag } from '../../site-by-flag.js';
import { examples, neverAsks } from '../../help.js';

export function registerSessions(program: Command): void {
  const sessions = examples(program.command('sessions').description('list and make sessions (management API)'), [
    'vtr sessions create --ip 203.0.113.7',
    'vtr sessions list --where "risk_level in (suspicious, invalid)"',
    'vtr sessions simulate --count 1000 --seed 42',
  ]);
  examples(
    sessions
      .command('list')
      .description('list sessions, newest first')
      .option('-w, --where <filter>', 'filter, e.g. "risk_level in (suspicious, invalid) and channel = paid"')
      .option('-n, --limit <n>', 'at most this many', '20')
      .option('--all-sites', 'every site, not just the current one (with a SITE column; not with --site)'),
    ['vtr sessions list', 'vtr sessions list --where "risks contains vpn" --limit 5', 'vtr sessions list --where "country_code = DE" --json'],
  ).action(action(() => import('./list.js')));
  neverAsks(examples(
    sessions
      .command('create')
      .description('make a session from page views, as the agent would')
      .option('--ip <ip>', 'visitor IP (reserved test ranges: `vtr testvalues`)', '192.0.2.10')
      .option('--user-agent <ua>', 'user agent (default: Chrome on Windows; "" for none)')
      .option('--url <url>', 'landing URL, with its query string (utm_*, gclid, ...)', 'https://example.com/')
      .option('--referrer <url>', 'referrer URL')
      .option('--language <tag>', 'IETF language tag', 'en-US')
      .option('--timezone <tz>', 'tz database name (default: the IP range\'s, e.g. America/New_York for 192.0.2.x)')
      .option('--page-views <n>', 'number of page views', '1')
      .option('--duration <seconds>', 'seconds from first to last activity', '0')
      .option('--fingerprint <id>', 'visitor fingerprint (same one again: a returning visitor)')
      .option('--event <name...>', 'custom events to add'),
    [
      'vtr sessions create',
      'vtr sessions create --ip 198.51.100.4 --url "https://shop.test/?gclid=abc"',
      'vtr sessions create --user-agent "Googlebot/2.1 (+http://www.google.com/bot.html)"',
      'vtr sessions create --page-views 4 --duration 120 --referrer https://news.example.org/',
    ],
  )).action(action(() => import('./create.js')));
  neverAsks(examples(
    sessions
      .command('simulate')
      .description('make realistic mixed traffic: channels, devices, bots, countries, engagement (seeded)')
      .option('-n, --count <n>', 'how many sessions (1 to 1000000)')
      .option('--seed <seed>', 'same seed, same traffic (default: random, printed)'),
    ['vtr sessions simulate --count 1000', 'vtr sessions simulate --count 100000 --seed 42', 'vtr sessions simulate --count 50 --seed demo --json'],
  )).action(action(() => import('./simulate.js')));
  picksSiteByFlag(sessions);
}

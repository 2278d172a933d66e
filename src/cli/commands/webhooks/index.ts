import type { Command } from 'commander';
import { action } from '../../run-command.js';
import { picksSiteByFlag } from '../../site-by-flag.js';
import { examples, neverAsks } from '../../help.js';

export function registerWebhooks(program: Command): void {
  const hooks = examples(program.command('webhooks').description('webhooks: endpoints, event history, retries, live tail and a local receiver'), [
    'vtr webhooks receive --port 9000                    # a local endpoint, in another terminal',
    'vtr webhooks create --url http://127.0.0.1:9000/',
    'vtr webhooks events wh_123 --status failed',
    'vtr webhooks retry msg_123',
  ]);
  examples(hooks.command('list').description("list the site's webhooks").option('--all', 'every site'), ['vtr webhooks list', 'vtr webhooks list --all --json']).action(
    action(() => import('./list.js')),
  );
  neverAsks(examples(hooks.command('create').description('add a webhook to the site (paid sites only)').option('--url <url>', 'http(s) endpoint to POST deliveries to'), [
    'vtr webhooks create --url http://127.0.0.1:9000/',
    'vtr webhooks create --url https://example.com/hooks/vtr --site site_123',
  ])).action(action(() => import('./create.js')));
  neverAsks(examples(hooks.command('update <id>').description("point a webhook at another URL (keeps its secret and event history)").option('--url <url>', 'new http(s) endpoint to POST deliveries to'), [
    'vtr webhooks update wh_123 --url http://127.0.0.1:9001/',
  ])).action(action(() => import('./update.js')));
  neverAsks(examples(hooks.command('enable <id>').description('re-enable a webhook (resets its failure run)'), [
    'vtr webhooks enable wh_123',
    'vtr webhooks retry --all-failed --webhook wh_123   # then resend what failed',
  ])).action(action(() => import('./enable.js')));
  neverAsks(examples(hooks.command('disable <id>').description('disable a webhook (its pending retries stop)'), ['vtr webhooks disable wh_123'])).action(
    action(() => import('./disable.js')),
  );
  examples(hooks.command('delete <id>').description('delete a webhook with its event history').option('-y, --yes', 'do not ask for confirmation (required without a terminal)'), [
    'vtr webhooks delete wh_123',
    'vtr webhooks delete wh_123 --yes',
  ]).action(action(() => import('./delete.js')));
  examples(hooks.command('secret <id>').description('print the signing secret alone'), [
    'vtr webhooks secret wh_123',
    'vtr webhooks receive --secret "$(vtr webhooks secret wh_123)"',
  ]).action(action(() => import('./secret.js')));
  examples(
    hooks
      .command('events <webhook-id>')
      .description("a webhook's events, newest first")
      .option('--status <status>', 'only pending, retrying, delivered or failed')
      .option('-n, --limit <n>', 'at most this many', '50'),
    ['vtr webhooks events wh_123', 'vtr webhooks events wh_123 --status failed --json'],
  ).action(action(() => import('./events.js')));
  examples(hooks.command('event <event-id>').description('one event with its attempts').option('--payload', 'also print the JSON body every attempt sent'), [
    'vtr webhooks event msg_123',
    'vtr webhooks event msg_123 --payload',
    'vtr webhooks event msg_123 --json | jq .attempts',
  ]).action(action(() => import('./event.js')));
  neverAsks(examples(
    hooks
      .command('retry [event-id]')
      .description('one delivery attempt now for a failed event (after its automatic retries)')
      .option('--all-failed', 'every failed event of --webhook')
      .option('--webhook <id>', 'the webhook for --all-failed'),
    ['vtr webhooks retry msg_123', 'vtr webhooks retry --all-failed --webhook wh_123'],
  )).action(action(() => import('./retry.js')));
  neverAsks(examples(
    hooks
      .command('trigger <webhook-id>')
      .description('send a test saved_view event now, through the normal outbox (signed, retried, recorded); prints its id')
      .option('--session <id>', 'for this session (default: a new one made from test values)')
      .option('--view <id>', "as this saved view (default: the site's first view, else a synthetic test view)"),
    ['vtr webhooks trigger wh_123', 'vtr webhooks trigger wh_123 --session ses_123 --view view_123', 'vtr webhooks trigger wh_123 --json | jq .webhook_event_id'],
  )).action(action(() => import('./trigger.js')));
  examples(hooks.command('tail').description('watch delivery attempts live').option('--webhook <id>', 'only this webhook'), [
    'vtr webhooks tail',
    'vtr webhooks tail --webhook wh_123 --json | jq .status_code',
  ]).action(action(() => import('./tail.js')));
  examples(
    hooks
      .command('receive')
      .description('run a local endpoint that prints each delivery and answers 200 (or fails on purpose)')
      .option('-p, --port <port>', 'port to listen on', '9000')
      .option('--host <host>', 'address to bind', '127.0.0.1')
      .option('--fail <n>', 'answer 500 to the first N deliveries, then 200')
      .option('--status <code>', 'always answer this status')
      .option('--delay <duration>', 'wait this long before answering (e.g. 2s; past --webhook-timeout is a timeout)')
      .option('--secret <whsec>', 'verify signatures with this secret (vtr webhooks secret <id>)')
      .option('--reject-invalid', 'with --secret: answer 401 to a delivery whose signature does not verify, as a real receiver would (the emulator retries it)'),
    [
      'vtr webhooks receive --port 9000 --secret whsec_...',
      'vtr webhooks receive --secret whsec_... --reject-invalid   # 401 to a bad signature',
      'vtr webhooks receive --fail 3          # see the retries',
      'vtr webhooks receive --status 410 --json',
    ],
  ).action(action(() => import('./receive.js'), { siteless: "is a local endpoint, for any site's webhooks" }));
  picksSiteByFlag(hooks, ['receive']);
}

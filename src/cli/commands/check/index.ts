import type { Command } from 'commander';
import { action } from '../../run-command.js';
import { examples, neverAsks, refusesGlobals } from '../../help.js';

// The visitor check takes the site's secret key: an access token given for it (another site's, say)
// would otherwise be ignored and the check run with the default site's key.
const TOKEN: [string, string] = ['--token', "`vtr check` sends the site's secret key, not an access token; give --secret-key or --site <site-id> (`vtr keys show --site <site-id>`), or leave --token out"];

export function registerCheck(program: Command): void {
  const check = neverAsks(examples(
    program
      .command('check')
      .description('run a visitor check (POST /api/v1/event) with the site secret key')
      .option('--probe-id <id>', "the agent's probe_id (a form's hidden probe_id field)")
      .option('--ip <ip>', "the visitor's IP as your server saw it")
      .option('--email <email>', 'email address')
      .option('--name <name>', 'full name (for the email name match)')
      .option('--phone <phone>', "phone in any format (local numbers read in the site's country)")
      .option('--external-id <id>', 'your own reference for the check (at most 50 characters), stored and echoed as external_id; sent as a string (an integer id: --data)')
      .option('--address1 <text>', 'address line 1')
      .option('--address2 <text>', 'address line 2')
      .option('--city <text>', 'city')
      .option('--state <text>', 'state, province or region (name or code)')
      .option('--country <text>', 'country (name or ISO code)')
      .option('--postal-code <text>', 'postal code')
      .option('--data <file|->', 'the request body as JSON, from a file or stdin (-); flags override its fields (--secret-key and --site its secret_key)')
      .option('--fail-on <level>', 'exit 3 when the risk level is at least unwanted, suspicious or invalid; or on review (review asked, or blocked) or blocked (the outcome)'),
    [
      'vtr check --email someone@mailinator.com',
      'vtr check --ip 203.0.113.7 --fail-on suspicious',
      'vtr check --ip 203.0.113.7 --fail-on blocked',
      'vtr check --email a@example.com --external-id order-42',
      'vtr check --probe-id prb_... --ip 192.0.2.10 --phone "(212) 664-7665"',
      'vtr check --city Berlin --country Germany --postal-code 10115',
      'echo \'{"email":"a@example.com"}\' | vtr check --data - --json',
    ],
  )).action(action(() => import('./check.js'), { refuses: { token: TOKEN } }));
  refusesGlobals(check, ['--token']);
}

import type { Command } from 'commander';
import { action } from '../../run-command.js';
import { examples, neverAsks } from '../../help.js';

export function registerSession(program: Command): void {
  const session = examples(program.command('session').description('one session through the public API (access token)'), [
    'vtr session get ses_123',
    'vtr session event ses_123 conversion',
    'vtr session get ses_123 --token at_test_123 --base-url http://127.0.0.1:8787/api/v1',
  ]);
  examples(session.command('get <id>').description('fetch a session (GET /api/v1/session/{id})'), [
    'vtr session get ses_123',
    'vtr session get ses_123 --json | jq .risk_level',
  ]).action(action(() => import('./get.js')));
  neverAsks(examples(session.command('event <id> <name>').description('add a custom event (POST /api/v1/session/{id}/event)'), [
    'vtr session event ses_123 signup',
    'vtr session event ses_123 conversion',
  ])).action(action(() => import('./event.js')));
}

import { Command, Option } from 'commander';
import { action } from '../../run-command.js';
import { picksSiteByFlag } from '../../site-by-flag.js';
import { examples, neverAsks } from '../../help.js';
import { RULE_ACTIONS } from '../../../domain/rules.js';

const actionOption = (description: string) => new Option('--action <action>', description).choices([...RULE_ACTIONS]);

export function registerRules(program: Command): void {
  const rules = examples(program.command('rules').description("the site's rules: what a visitor check decides (allowed, blocked, review)"), [
    'vtr rules list',
    'vtr rules create --name "Block disposable sign-ups" --filter "risks contains disposable_email" --action block',
    'vtr rules update location --enable --action block',
  ]);
  examples(rules.command('list').description("list the site's rules in evaluation order"), ['vtr rules list', 'vtr rules list --json']).action(
    action(() => import('./list.js')),
  );
  neverAsks(examples(
    rules
      .command('create')
      .description('create a custom rule: a filter over the check\'s session and an action')
      .option('--name <name>', "the rule's name (reported in each check's rules)")
      .option('--filter <filter>', 'filter over Session fields, as in `sessions list --where`')
      .addOption(actionOption(`what a match decides: ${RULE_ACTIONS.join(', ')}`))
      .option('--disabled', 'create it disabled'),
    ['vtr rules create --name "Paid VPN" --filter "channel = paid and risks contains vpn" --action review'],
  )).action(action(() => import('./create.js')));
  neverAsks(examples(
    rules
      .command('update <rule-id>')
      .description('change a rule (smart rules by their ids: bot, anonymous, location, repeat_device, emails_per_device)')
      .option('--name <name>', 'new name')
      .option('--filter <filter>', 'new filter (custom rules)')
      .addOption(actionOption('new action'))
      .option('--threshold <n>', 'new threshold (repeat_device, emails_per_device)')
      .option('--enable', 'enable the rule')
      .option('--disable', 'disable the rule'),
    ['vtr rules update location --enable', 'vtr rules update repeat_device --enable --threshold 5', 'vtr rules update bot --action block_review'],
  )).action(action(() => import('./update.js')));
  examples(rules.command('delete <rule-id>').description('delete a custom rule').option('-y, --yes', 'do not ask for confirmation (required without a terminal)'), [
    'vtr rules delete rule_123 --yes',
  ]).action(action(() => import('./delete.js')));
  picksSiteByFlag(rules);
}

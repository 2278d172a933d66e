import { Command, Option } from 'commander';
import { VERSION } from '../version.js';
import { versionLine } from './version-line.js';
import { canPrompt } from './context.js';
import { commandPath } from './run-command.js';
import { examplesOf, visibleGlobalOptions } from './help.js';
import { flagTakenAsValue } from './flag-as-value.js';
import { didYouMean, nameUnknownCommands, verbsOf } from './unknown-command.js';
import { registerServe } from './commands/serve/index.js';
import { registerExec } from './commands/exec/index.js';
import { registerSites } from './commands/sites/index.js';
import { registerKeys } from './commands/keys/index.js';
import { registerTokens } from './commands/tokens/index.js';
import { registerSession } from './commands/session/index.js';
import { registerSessions } from './commands/sessions/index.js';
import { registerClock } from './commands/clock/index.js';
import { registerCheck } from './commands/check/index.js';
import { registerTestValues } from './commands/testvalues/index.js';
import { registerHealth } from './commands/health/index.js';
import { registerViews } from './commands/views/index.js';
import { registerRules } from './commands/rules/index.js';
import { registerWebhooks } from './commands/webhooks/index.js';
import { registerNotifications } from './commands/notifications/index.js';
import { registerLogs } from './commands/logs/index.js';
import { registerState } from './commands/state/index.js';
import { registerOpenApi } from './commands/openapi/index.js';

/** Every command group; a group adds its verbs with their options and lazily loaded run(). */
export const GROUPS: Array<(program: Command) => void> = [
  registerServe,
  registerExec,
  registerSites,
  registerKeys,
  registerTokens,
  registerSession,
  registerSessions,
  registerCheck,
  registerClock,
  registerTestValues,
  registerHealth,
  registerViews,
  registerRules,
  registerWebhooks,
  registerNotifications,
  registerLogs,
  registerState,
  registerOpenApi,
];

export function buildProgram(): Command {
  const program = new Command('vtr')
    .description('Local emulator and CLI for the visitor-traffic risk service')
    .version(VERSION, '-v, --version')
    .addOption(new Option('--base-url <url>', 'public API base URL (env VTR_BASE_URL)').default(undefined, 'http://127.0.0.1:8787/api/v1'))
    .option('--json', 'print exactly one JSON document on stdout')
    .option('--no-color', 'no colour (also NO_COLOR)')
    .option('-q, --quiet', 'no hints or progress on stderr')
    .option('--secret-key <key>', "site secret key (env VTR_SECRET_KEY; default: the local emulator's default site)")
    .option('--token <token>', 'access token (env VTR_ACCESS_TOKEN)')
    .option('--admin-token <token>', 'emulator admin token (env VTR_ADMIN_TOKEN)')
    .option('--site <id>', 'use this site instead of the default site')
    .showSuggestionAfterError()
    // commander's own parse errors read like ours: "vtr: usage error: unknown option '--x'".
    .configureOutput({ outputError: (str, write) => write(str.startsWith('error: ') ? `vtr: usage ${str}` : str) })
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false, visibleGlobalOptions })
    .addHelpText(
      'after',
      `
Examples:
  $ npx vtr serve                          # start the emulator on http://127.0.0.1:8787
  $ vtr exec -- npm test                   # run a command against a fresh in-memory emulator
  $ vtr check --email a@example.com        # run a visitor check against the default site
  $ vtr sessions create --ip 203.0.113.7   # make a session (a Tor exit: risk_level invalid)
  $ vtr sessions list --where "risk_level = invalid"
  $ vtr webhooks tail                      # watch webhook attempts live

Exit codes: 0 ok, 1 operation failed, 2 usage error, 3 check --fail-on threshold reached.`,
    );
  // commander prints the version as text; with --json (before or after it, so read from the raw
  // arguments: a later --json is not parsed yet) it is one JSON document, as every command's output.
  // rawArgs, removeAllListeners and _exit are commander's (untyped) parts; _exit goes through exitOverride.
  const p = program as Command & { rawArgs: string[]; removeAllListeners(event: string): void; _exit(exitCode: number, code: string, message: string): never };
  p.removeAllListeners('option:version');
  program.on('option:version', () => {
    // `vtr --version extra`: a word it was not given to take is a slip, not a request for the version.
    const extra = unexpectedWord(p.rawArgs.slice(2), program);
    if (extra !== undefined) program.error(`error: unexpected argument '${extra}': \`vtr --version\` takes none`, { code: 'commander.excessArguments', exitCode: 2 });
    process.stdout.write(versionLine(p.rawArgs.slice(2).includes('--json'), !!process.stdout.isTTY));
    p._exit(0, 'commander.version', VERSION);
  });
  program.exitOverride();
  for (const register of GROUPS) register(program);
  askForMissingArguments(program);
  nameExcessArguments(program);
  nameChoices(program);
  pointUnknownOptionsToHelp(program);
  nameUnknownCommands(program);
  pointAcrossGroups(program, 'session', 'sessions');
  return program;
}

/**
 * `vtr sessions get <id>` and `vtr session list` are easy slips between the one-session group
 * (public API) and the many-sessions group: the usage error names the verb's real group.
 */
function pointAcrossGroups(program: Command, a: string, b: string): void {
  for (const [name, other] of [[a, b], [b, a]]) {
    const group = program.commands.find((c) => c.name() === name);
    const sibling = program.commands.find((c) => c.name() === other);
    if (!group || !sibling) continue;
    // unknownCommand is commander's (untyped) hook for a verb the group does not have.
    const g = group as Command & { unknownCommand(): void };
    const original = g.unknownCommand.bind(g);
    g.unknownCommand = () => {
      const verb = group.args[0];
      if (!sibling.commands.some((c) => c.name() === verb)) return original();
      group.error(`error: unknown command '${verb}' for \`vtr ${name}\`: use \`vtr ${other} ${verb}\` (see \`vtr ${other} ${verb} --help\`)`, {
        code: 'commander.unknownCommand',
        exitCode: 2,
      });
    };
  }
}

/**
 * On a terminal a missing required argument is asked for (by `action()`), not a usage error;
 * elsewhere the usage error (exit 2) names it and shows the command's first example, which
 * commander's bare "missing required argument" does not. A command may say more (state export).
 */
function askForMissingArguments(cmd: Command): void {
  // missingArgument is commander's (untyped) hook for this check.
  const c = cmd as Command & { missingArgument(name: string): void };
  const own = Object.prototype.hasOwnProperty.call(c, 'missingArgument') ? c.missingArgument.bind(c) : null;
  c.missingArgument = (name: string) => {
    if (canPrompt(!!process.stdin.isTTY, !!process.stderr.isTTY, process.env)) return;
    if (own) return own(name);
    const path = commandPath(cmd);
    const example = examplesOf(cmd).find((l) => l.startsWith(`${path} `))?.replace(/\s+#.*$/, '');
    cmd.error(`error: missing required argument '${name}': ${example ? `e.g. \`${example}\` ` : ''}(see \`${path} --help\`)`, { exitCode: 2, code: 'commander.missingArgument' });
  };
  // commander's "option '--fail-on <level>' argument missing": say what the flag takes, as above.
  const o = cmd as Command & { optionMissingArgument(option: Option): void };
  o.optionMissingArgument = (option: Option) => {
    const flag = option.long ?? option.flags;
    const value = option.flags.match(/<[^>]+>/)?.[0] ?? '<value>';
    const what = option.argChoices ? `one of ${option.argChoices.join(', ')}` : option.description;
    const example = examplesOf(cmd).find((l) => l.includes(`${flag} `))?.replace(/\s+#.*$/, '');
    cmd.error(`error: ${flag} needs a value (${value}): ${what}${example ? `; e.g. \`${example}\`` : ''} (see \`${commandPath(cmd)} --help\`)`, { exitCode: 2, code: 'commander.optionMissingArgument' });
  };
  for (const sub of cmd.commands) askForMissingArguments(sub);
}

/** The first word in `args` that is neither an option nor the value of one of `options` that takes a value. */
function unexpectedWord(args: string[], program: Command): string | undefined {
  // `vtr check --ip 192.0.2.1 --version`: the command's names and its flags' values are not extra
  // (each command's help lists --version among its global options).
  let cmd = program;
  const takesValue = (c: Command) => new Set(c.options.filter((o) => o.required || o.optional).flatMap((o) => [o.long, o.short]));
  let values = takesValue(cmd);
  for (let i = 0; i < args.length; i++) {
    const sub = cmd.commands.find((c) => c.name() === args[i] || c.aliases().includes(args[i]));
    if (values.has(args[i])) i++;
    else if (sub) {
      cmd = sub;
      values = new Set([...values, ...takesValue(sub)]);
    } else if (!args[i].startsWith('-')) return args[i];
  }
  return undefined;
}

/**
 * commander's "too many arguments for 'list'. Expected 0 arguments but got 1." names neither the
 * word nor the whole command: the usage error says both, and what the command does take.
 */
function nameExcessArguments(cmd: Command): void {
  // _excessArguments is commander's (untyped) hook for this check; variadic commands never reach it.
  const c = cmd as Command & { _excessArguments(received: string[]): void };
  c._excessArguments = (received: string[]) => {
    // `--name $NAME --filter F` with NAME unset: the word left over is not what went wrong.
    const taken = flagTakenAsValue(cmd);
    if (taken) cmd.error(`error: ${taken}`, { code: 'commander.excessArguments', exitCode: 2 });
    const expected = cmd.registeredArguments;
    const path = commandPath(cmd);
    const takes = expected.length ? `${expected.length} (${expected.map((a) => (a.required ? `<${a.name()}>` : `[${a.name()}]`)).join(' ')})` : 'none';
    // `vtr clock show`: a group that also runs alone (`vtr clock`) was given a verb it does not have.
    const verbs = verbsOf(cmd);
    const unknownVerb = verbs.length > 0 && !expected.length;
    const what = unknownVerb ? `unknown command '${received[0]}' for \`${path}\` (its commands: ${verbs.join(', ')}; or none)` : `unexpected argument '${received[expected.length]}': \`${path}\` takes ${takes}`;
    cmd.error(`error: ${what} (see \`${path} --help\`)${unknownVerb ? didYouMean(received[0], verbs) : ''}`, {
      code: 'commander.excessArguments',
      exitCode: 2,
    });
  };
  for (const sub of cmd.commands) nameExcessArguments(sub);
}

/** commander's "option '--clock <mode>' argument 'froze' is invalid. Allowed choices are …", in vtr's words. */
function nameChoices(cmd: Command): void {
  // _callParseArg is commander's (untyped) hook that parses an option's value.
  const c = cmd as Command & { _callParseArg(target: unknown, value: string, previous: unknown, message: string): unknown };
  const parse = c._callParseArg.bind(c);
  c._callParseArg = (target, value, previous, message) => {
    if (target instanceof Option && target.long && target.argChoices && !target.argChoices.includes(value)) {
      cmd.error(`error: ${target.long}: ${JSON.stringify(value)} is not one of ${target.argChoices.join(', ')}${didYouMean(value, target.argChoices)}`, { exitCode: 2, code: 'commander.invalidArgument' });
    }
    return parse(target, value, previous, message);
  };
  for (const sub of cmd.commands) nameChoices(sub);
}

/** commander's "unknown option '--x'" with no close option to suggest says where the options are, as an unknown command does. */
function pointUnknownOptionsToHelp(cmd: Command): void {
  // unknownOption is commander's (untyped) hook; it reports through cmd.error, which throws (exitOverride).
  const c = cmd as Command & { unknownOption(flag: string): never };
  const original = c.unknownOption.bind(c);
  c.unknownOption = (flag) => {
    const error = cmd.error.bind(cmd);
    cmd.error = (message, opts) => error(/^error: unknown option '[^']*'$/.test(message) ? `${message} (see \`${commandPath(cmd)} --help\`)` : message, opts);
    try {
      return original(flag);
    } finally {
      cmd.error = error;
    }
  };
  for (const sub of cmd.commands) pointUnknownOptionsToHelp(sub);
}

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Command, CommanderError } from 'commander';
import { buildProgram } from '../../src/cli/program.js';
import { exitCodeFor, OperationError, ThresholdReached, UsageError } from '../../src/cli/errors.js';
import { resolveConfig } from '../../src/cli/context.js';
import { ApiError, ConnectionError } from '../../src/client/api-client.js';
import { AnswerTimeout } from '../../src/client/http.js';
import { asUsageError, reportError } from '../../src/cli/run-command.js';

const FOUNDATION_GROUPS = ['serve', 'sites', 'keys', 'tokens', 'session', 'sessions', 'clock'];

/** The full help text of a command, including "after" texts such as examples. */
function helpOf(cmd: Command): string {
  let out = '';
  cmd.configureOutput({ writeOut: (s) => (out += s), writeErr: (s) => (out += s) });
  cmd.outputHelp();
  return out;
}

/** Parses `vtr <argv>` with commander's own output caught: the error thrown (or null) and what went to stderr. */
async function parseQuietly(argv: string[]): Promise<{ err: unknown; stderr: string }> {
  const program = buildProgram();
  let stderr = '';
  const quiet = (c: Command) => {
    c.configureOutput({ writeErr: (s) => (stderr += s), writeOut: () => {} });
    c.commands.forEach(quiet);
  };
  quiet(program);
  const err = await program.parseAsync(['node', 'vtr', ...argv]).then(() => null, (e: unknown) => e);
  return { err, stderr };
}

/** Every runnable command of the foundation groups: `serve`, `clock`, and each `<group> <verb>`. */
function verbs(program: Command): Array<[string, Command]> {
  const out: Array<[string, Command]> = [];
  for (const group of program.commands.filter((c) => FOUNDATION_GROUPS.includes(c.name()))) {
    const subs = group.commands.filter((c) => c.name() !== 'help');
    if (subs.length === 0 || group.name() === 'clock') out.push([group.name(), group]);
    for (const sub of subs) out.push([`${group.name()} ${sub.name()}`, sub]);
  }
  return out;
}

describe('cli: help', () => {
  it('help: vtr --help shows examples and exit codes', () => {
    const text = helpOf(buildProgram());
    expect(text).toContain('Examples:');
    expect(text).toMatch(/\$ npx vtr serve/);
    expect(text).toMatch(/Exit codes: 0 ok, 1 operation failed, 2 usage error/);
  });

  it('help: every foundation verb shows examples', () => {
    const all = verbs(buildProgram());
    expect(all.map(([n]) => n)).toEqual(expect.arrayContaining([
      'serve', 'sites list', 'sites create', 'sites show', 'sites update', 'sites delete', 'keys show', 'keys rotate',
      'tokens list', 'tokens create', 'tokens revoke', 'session get', 'session event', 'sessions list', 'sessions create',
      'clock', 'clock advance', 'clock set',
    ]));
    for (const [name, cmd] of all) {
      const text = helpOf(cmd);
      expect(text, name).toMatch(/Examples:\n\s+\$ vtr /);
      expect(text, name).toContain(`vtr ${name}`);
    }
  });
});

describe('cli: README', () => {
  it("help: every command, verb and option of vtr --help is in the README's Commands section", () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const block = readme.slice(readme.indexOf('## Commands'), readme.indexOf('## Configuration'));
    // A group's lines: those starting "vtr <group>", with their indented continuation lines.
    const linesOf = (group: string): string =>
      block.split(/\n(?=\S)/).filter((l) => l.startsWith(`vtr ${group} `) || l === `vtr ${group}`).join('\n');
    const missing: string[] = [];
    for (const group of buildProgram().commands.filter((c) => c.name() !== 'help')) {
      // `vtr exec [serve options]` takes serve's options.
      const text = linesOf(group.name()) + (group.name() === 'exec' ? `\n${linesOf('serve')}` : '');
      if (!text) missing.push(group.name());
      for (const cmd of [group, ...group.commands.filter((c) => c.name() !== 'help')]) {
        const name = cmd === group ? group.name() : `${group.name()} ${cmd.name()}`;
        if (cmd !== group && !new RegExp(`\\b${cmd.name()}\\b`).test(text)) missing.push(name);
        for (const o of cmd.options) {
          if (o.long && o.long !== '--help' && !new RegExp(`${o.long}(?![\\w-])`).test(text)) missing.push(`${name} ${o.long}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});

describe('cli: confirmation', () => {
  it('help: --yes says whether a command without a terminal needs it, as each one behaves', () => {
    const yes = new Map<string, string>();
    for (const group of buildProgram().commands) {
      for (const cmd of [group, ...group.commands]) {
        const o = cmd.options.find((x) => x.long === '--yes');
        if (o) yes.set(cmd === group ? group.name() : `${group.name()} ${cmd.name()}`, o.description);
      }
    }
    // Deletes and a reset refuse without a terminal; rotating, revoking, importing and overwriting an
    // export go ahead (README).
    for (const name of ['sites delete', 'views delete', 'rules delete', 'webhooks delete', 'state reset']) {
      expect(yes.get(name), name).toMatch(/required without a terminal/);
    }
    for (const name of ['keys rotate', 'tokens revoke', 'state import', 'state export']) expect(yes.get(name), name).toMatch(/on a terminal$/);
    // Every other command that changes state takes it too (scripts pass it everywhere), and says it never asks.
    const others = [...yes].filter(([name]) => !/^(sites|views|rules|webhooks) delete$|^state (reset|import|export)$|^keys rotate$|^tokens revoke$/.test(name));
    expect(others.map(([name]) => name).sort()).toEqual(
      ['check', 'clock advance', 'clock set', 'rules create', 'rules update', 'session event', 'sessions create', 'sessions simulate', 'sites create', 'sites update',
        'tokens create', 'views create', 'views update', 'webhooks create', 'webhooks disable', 'webhooks enable', 'webhooks retry', 'webhooks trigger', 'webhooks update'].sort(),
    );
    for (const [name, description] of others) expect(description, name).toMatch(/^accepted, never needed/);
  });
});

describe('cli: help examples', () => {
  /** Every command under `cmd`, itself included. */
  const all = (cmd: Command): Command[] => [cmd, ...cmd.commands.flatMap(all)];

  it('help: an example line is a command that can be copied: any prose after it is a # comment', () => {
    for (const cmd of all(buildProgram())) {
      for (const line of helpOf(cmd).split('\n').filter((l) => /^\s+\$ /.test(l))) {
        // Two or more spaces then text that is not a comment: prose the shell would take as arguments.
        expect(line, cmd.name()).not.toMatch(/\S {2,}[^#\s]/);
      }
    }
  });

  it('help: serve shows its own --admin-token (what it requires), not only the global client credential', () => {
    const serve = buildProgram().commands.find((c) => c.name() === 'serve')!;
    expect(serve.options.map((o) => o.long)).toContain('--admin-token');
    expect(helpOf(serve)).toMatch(/--admin-token <token> +require this token on non-loopback binds/);
  });
});

describe('cli: exit codes', () => {
  it('exitCodeFor: usage 2, operation 1, threshold 3, commander parse errors 2, help 0', () => {
    expect(exitCodeFor(new UsageError('x'))).toBe(2);
    expect(exitCodeFor(new OperationError('x'))).toBe(1);
    expect(exitCodeFor(new ThresholdReached('x'))).toBe(3);
    expect(exitCodeFor(new ApiError(404, 'not_found', 'x'))).toBe(1);
    expect(exitCodeFor(new ConnectionError('http://127.0.0.1:1'))).toBe(1);
    expect(exitCodeFor(new Error('x'))).toBe(1);
    expect(exitCodeFor(new CommanderError(1, 'commander.unknownOption', 'x'))).toBe(2);
    expect(exitCodeFor(new CommanderError(1, 'commander.missingArgument', 'x'))).toBe(2);
    expect(exitCodeFor(new CommanderError(0, 'commander.helpDisplayed', 'x'))).toBe(0);
  });

  it('asUsageError: a 400 about a field a given flag carried is that flag\'s usage error; others stay', () => {
    const cmd = new Command('create').option('--owner-email <e>').option('--country <c>');
    cmd.setOptionValue('ownerEmail', 'nope');
    const bad = new ApiError(400, 'invalid_request', 'owner_email: must be an email address', { field: 'owner_email' });
    const mapped = asUsageError(bad, cmd);
    expect(mapped).toBeInstanceOf(UsageError);
    expect((mapped as Error).message).toBe('--owner-email: must be an email address');
    // A flag that was not given (the value came from elsewhere), another code, another status: unchanged.
    const notGiven = new ApiError(400, 'invalid_request', 'country: x', { field: 'country' });
    expect(asUsageError(notGiven, cmd)).toBe(notGiven);
    const conflict = new ApiError(409, 'conflict', 'x', { field: 'owner_email' });
    expect(asUsageError(conflict, cmd)).toBe(conflict);
  });

  it('asUsageError: a 400 about a field one of the command\'s arguments carried is that argument\'s usage error, named <arg>', () => {
    const cmd = new Command('delete').argument('<rule-id>').argument('[event-id]').option('--yes');
    const builtIn = new ApiError(400, 'invalid_request', 'bot is a built-in rule and cannot be deleted; disable it instead', { field: 'rule_id' });
    const mapped = asUsageError(builtIn, cmd, ['bot']);
    expect(mapped).toBeInstanceOf(UsageError);
    expect((mapped as Error).message).toBe('<rule-id>: bot is a built-in rule and cannot be deleted; disable it instead');
    // The field's name in front of the message is said once, as the argument.
    const named = new ApiError(400, 'invalid_request', 'event_id: must be an event id', { field: 'event_id' });
    expect((asUsageError(named, cmd, ['bot', 'x']) as Error).message).toBe('<event-id>: must be an event id');
    // An optional argument left out did not carry it; another status is not refused input.
    expect(asUsageError(named, cmd, ['bot'])).toBe(named);
    const conflict = new ApiError(409, 'conflict', 'x', { field: 'rule_id' });
    expect(asUsageError(conflict, cmd, ['bot'])).toBe(conflict);
  });

  it('asUsageError: a 400 about one entry of a list flag names that entry, as the user typed it', () => {
    const cmd = new Command('update').option('--excluded-countries <codes>').option('--ip-allowlist <list>').option('--event <name...>');
    cmd.setOptionValue('excludedCountries', 'us, ,XX ');
    const country = new ApiError(400, 'invalid_request', 'excluded_countries.1: must be a two-letter ISO 3166-1 country code, e.g. US, GB, DE', { field: 'excluded_countries.1' });
    expect((asUsageError(country, cmd) as Error).message).toBe('--excluded-countries: "XX": must be a two-letter ISO 3166-1 country code, e.g. US, GB, DE');
    // A message that already quotes the entry keeps its words.
    cmd.setOptionValue('ipAllowlist', '10.0.0.0/8,1.2.3.4/99');
    const ip = new ApiError(400, 'invalid_request', 'ip_allowlist.1: "1.2.3.4/99" is not an IP address or CIDR range', { field: 'ip_allowlist.1' });
    expect((asUsageError(ip, cmd) as Error).message).toBe('--ip-allowlist: "1.2.3.4/99" is not an IP address or CIDR range');
    // A repeatable flag's values are its entries.
    cmd.setOptionValue('event', ['ok', 'b a d']);
    const event = new ApiError(400, 'invalid_request', 'event.1: must be a name', { field: 'event.1' });
    expect((asUsageError(event, cmd) as Error).message).toBe('--event: "b a d": must be a name');
  });

  it('exitCodeFor: a prompt cancelled with Ctrl-C is 130, reported as "cancelled"', () => {
    // What @inquirer/prompts throws on Ctrl-C (its class is not re-exported; the name is its API).
    const err = Object.assign(new Error('User force closed the prompt with SIGINT'), { name: 'ExitPromptError' });
    expect(exitCodeFor(err)).toBe(130);
    let written = '';
    const io = { stdout: process.stdout, stderr: { write: (s: string) => ((written += s), true) }, stdinIsTTY: false } as never;
    expect(reportError({ io, config: { baseUrl: 'http://x/api/v1' } as never }, err)).toBe(130);
    expect(written).toBe('vtr: cancelled\n');
  });

  it('parse: an unknown option or a missing argument is a commander error mapped to 2', async () => {
    for (const argv of [['sessions', 'list', '--bogus'], ['session', 'get'], ['serve', '--clock', 'weird'], ['nope']]) {
      const { err, stderr } = await parseQuietly(argv);
      expect(err, argv.join(' ')).toBeInstanceOf(CommanderError);
      expect(exitCodeFor(err), argv.join(' ')).toBe(2);
      expect(stderr, argv.join(' ')).toMatch(/^vtr: usage error: /);
    }
  });

  it('serve/exec --retry-base with --retry-schedule: a usage error naming both, instead of --retry-base silently ignored', async () => {
    for (const argv of [['serve', '--port', '0', '--memory', '--retry-base', '500ms', '--retry-schedule', '1s,2s,3s,4s,5s'], ['exec', '--port', '0', '--retry-schedule', '1s,2s,3s,4s,5s', '--retry-base', '1s', '--', 'true']]) {
      const { err, stderr } = await parseQuietly(argv);
      expect(err, argv.join(' ')).toBeInstanceOf(CommanderError);
      expect(exitCodeFor(err), argv.join(' ')).toBe(2);
      expect(stderr, argv.join(' ')).toMatch(/--retry-schedule.*--retry-base|--retry-base.*--retry-schedule/);
    }
  });

  it('serve/exec flags that cannot go together: vtr\'s own usage error naming both and which to keep', async () => {
    const cases: Array<[string[], string]> = [
      [['serve', '--memory', '--retry-base', '500ms', '--retry-schedule', '1s,2s,3s,4s,5s'], 'vtr: usage error: --retry-base and --retry-schedule cannot be given together: --retry-schedule sets all five retry delays, --retry-base only the first (each next one doubles); give one of them, e.g. `vtr serve --retry-schedule 5s,5m,30m,2h,5h` (see `vtr serve --help`)\n'],
      [['exec', '--retry-schedule', '1s,2s,3s,4s,5s', '--retry-base', '1s', '--', 'true'], 'vtr: usage error: --retry-base and --retry-schedule cannot be given together: --retry-schedule sets all five retry delays, --retry-base only the first (each next one doubles); give one of them, e.g. `vtr exec --retry-schedule 5s,5m,30m,2h,5h` (see `vtr exec --help`)\n'],
      [['serve', '--db', 'x.db', '--memory'], 'vtr: usage error: --db and --memory cannot be given together: --memory keeps nothing, --db keeps the state in that file; give one of them (see `vtr serve --help`)\n'],
    ];
    for (const [argv, message] of cases) {
      const { err, stderr } = await parseQuietly(argv);
      expect(exitCodeFor(err), argv.join(' ')).toBe(2);
      expect(stderr, argv.join(' ')).toBe(message);
    }
  });

  it('parse: a value outside an option\'s choices is a usage error in vtr\'s words, naming the flag, the choices and the nearest one', async () => {
    const cases: Array<[string[], string]> = [
      [['serve', '--clock', 'froze'], 'vtr: usage error: --clock: "froze" is not one of system, manual, frozen. Did you mean frozen?\n'],
      [['serve', '--sync', 'weird'], 'vtr: usage error: --sync: "weird" is not one of normal, full\n'],
    ];
    for (const [argv, message] of cases) {
      const { err, stderr } = await parseQuietly(argv);
      expect(exitCodeFor(err), argv.join(' ')).toBe(2);
      expect(stderr, argv.join(' ')).toBe(message);
    }
  });
});

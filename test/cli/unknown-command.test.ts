import { describe, expect, it } from 'vitest';
import { Command, CommanderError } from 'commander';
import { buildProgram } from '../../src/cli/program.js';

/** The usage error `vtr <args>` ends with, before any action runs. */
async function usageError(args: string[]): Promise<{ exitCode: number; message: string }> {
  const program = buildProgram();
  const quiet = (c: Command): void => {
    c.configureOutput({ writeErr: () => {}, writeOut: () => {} });
    c.commands.forEach(quiet);
  };
  quiet(program);
  try {
    await program.parseAsync(args, { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) return { exitCode: err.exitCode, message: err.message };
    throw err;
  }
  throw new Error(`vtr ${args.join(' ')} was accepted`);
}

describe('cli: unknown commands', () => {
  it('unknown command: every group names itself and lists its commands, exit 2', async () => {
    const cases: Array<[string[], string]> = [
      [['rules', 'show', 'bot'], "unknown command 'show' for `vtr rules` (its commands: list, create, update, delete) (see `vtr rules --help`)"],
      [['views', 'show', 'x'], "unknown command 'show' for `vtr views` (its commands: list, create, update, delete) (see `vtr views --help`)"],
      [['webhooks', 'get', 'x'], "unknown command 'get' for `vtr webhooks` (its commands: list, create, update, enable, disable, delete, secret, events, event, retry, trigger, tail, receive)"],
      [['state', 'save'], "unknown command 'save' for `vtr state` (its commands: export, import, reset) (see `vtr state --help`)"],
      [['nosuchcommand'], "unknown command 'nosuchcommand' for `vtr` (its commands: serve, exec, sites,"],
    ];
    for (const [args, said] of cases) {
      const e = await usageError(args);
      expect(e.exitCode, args.join(' ')).toBe(2);
      expect(e.message, args.join(' ')).toContain(`error: ${said}`);
    }
  });

  it('unknown option: names the command\'s --help when no option is close to it, and keeps a suggestion when one is', async () => {
    const cases: Array<[string[], string]> = [
      [['check', '--frob'], "error: unknown option '--frob' (see `vtr check --help`)"],
      [['rules', 'list', '--frob'], "error: unknown option '--frob' (see `vtr rules list --help`)"],
      [['--frob'], "error: unknown option '--frob' (see `vtr --help`)"],
      [['check', '--ipp', '1.2.3.4'], "error: unknown option '--ipp'\n(Did you mean --ip?)"],
    ];
    for (const [args, said] of cases) {
      expect((await usageError(args)).message, args.join(' ')).toBe(said);
    }
  });

  it('unknown command: `vtr help <verb>` of a verb the group does not have is the same usage error, not the whole help', async () => {
    const top = await usageError(['help', 'chek']);
    expect(top.exitCode).toBe(2);
    expect(top.message).toMatch(/^error: unknown command 'chek' for `vtr` \(its commands: serve, exec, .*\(see `vtr --help`\)\. Did you mean check\?$/);
    const group = await usageError(['sessions', 'help', 'lst']);
    expect(group.exitCode).toBe(2);
    expect(group.message).toBe("error: unknown command 'lst' for `vtr sessions` (its commands: list, create, simulate) (see `vtr sessions --help`). Did you mean list?");
    // The group's own hint holds there too.
    expect((await usageError(['session', 'help', 'list'])).message).toBe("error: unknown command 'list' for `vtr session`: use `vtr sessions list` (see `vtr sessions list --help`)");
  });

  it('unknown command: the verb a user plainly meant is suggested, only when the group has it', async () => {
    const cases: Array<[string[], string | null]> = [
      [['rules', 'show', 'bot'], 'list'],
      [['sites', 'get', 'x'], 'show'],
      [['keys', 'get'], 'show'],
      [['tokens', 'rm', 'x'], 'revoke'],
      [['views', 'rm', 'x'], 'delete'],
      [['webhooks', 'add'], 'create'],
      [['views', 'edit', 'x'], 'update'],
      [['logs', 'watch'], 'tail'],
      [['webhooks', 'evnts', 'x'], 'events'],
      [['sesions', 'list'], 'sessions'],
      [['clock', 'adv', '5m'], 'advance'],
      [['state', 'save'], null],
      [['clock', 'show'], null],
    ];
    for (const [args, meant] of cases) {
      const { message } = await usageError(args);
      if (meant) expect(message, args.join(' ')).toMatch(new RegExp(`\\. Did you mean ${meant}\\?$`));
      else expect(message, args.join(' ')).not.toContain('Did you mean');
    }
  });
});

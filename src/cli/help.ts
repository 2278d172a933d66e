import type { Command } from 'commander';

const EXAMPLES = new WeakMap<Command, string[]>();

/** The example lines given to `examples()` for a command (a usage error quotes the first). */
export const examplesOf = (cmd: Command): string[] => EXAMPLES.get(cmd) ?? [];

/** Adds "Examples:" help text to a command. */
export function examples(cmd: Command, lines: string[]): Command {
  EXAMPLES.set(cmd, lines);
  return cmd.addHelpText('after', `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}`);
}

/**
 * Scripts pass --yes to every command that changes state; one that never asks takes it too,
 * rather than failing with "unknown option".
 */
export function neverAsks(cmd: Command): Command {
  return cmd.option('-y, --yes', 'accepted, never needed: this command does not ask for confirmation');
}

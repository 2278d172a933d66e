import { Help, type Command, type Option } from 'commander';

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

/**
 * The global options a command's help lists: not one the command defines itself (serve's
 * --admin-token is what the emulator requires, not the client's credential), so each flag is
 * described once, in the command's own words.
 */
export function visibleGlobalOptions(this: Help, cmd: Command): Option[] {
  const own = new Set(cmd.options.flatMap((o) => [o.long, o.short]).filter(Boolean));
  const refused = REFUSED_GLOBALS.get(cmd);
  return Help.prototype.visibleGlobalOptions.call(this, cmd).filter((o) => !own.has(o.long) && !own.has(o.short) && !refused?.has(o.long ?? ''));
}

const REFUSED_GLOBALS = new WeakMap<Command, Set<string>>();

/** Global flags the command refuses (a usage error): its help does not offer them. */
export function refusesGlobals(cmd: Command, flags: string[]): Command {
  REFUSED_GLOBALS.set(cmd, new Set(flags));
  return cmd;
}

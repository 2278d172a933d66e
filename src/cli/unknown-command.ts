// A verb a command group does not have: commander says only "unknown command 'show'", and its
// spelling suggestion misses the words other CLIs use for the same thing (show for list, rm for
// delete). The usage error names the group, lists its verbs and suggests one when it is plain.
import type { Command } from 'commander';
import { commandPath } from './run-command.js';

// Words other tools use, each with the verbs it plausibly means, best first.
const SYNONYMS: Record<string, readonly string[]> = {
  show: ['show', 'get', 'list'], get: ['get', 'show', 'list'], view: ['get', 'show', 'list'], info: ['get', 'show'],
  describe: ['get', 'show'], inspect: ['get', 'show'], ls: ['list'], all: ['list'],
  rm: ['delete', 'revoke'], remove: ['delete', 'revoke'], del: ['delete', 'revoke'], destroy: ['delete', 'revoke'],
  add: ['create'], new: ['create'], make: ['create'],
  edit: ['update'], set: ['update', 'set'], change: ['update'], modify: ['update'], patch: ['update'],
  watch: ['tail'], follow: ['tail'], on: ['enable'], off: ['disable'],
};

/** The verbs of `cmd` a user can type (commander's implicit help left out). */
export function verbsOf(cmd: Command): string[] {
  return cmd.commands.map((c) => c.name()).filter((n) => n !== 'help');
}

/** What `typed` plainly means among `verbs`, as ". Did you mean list?" (or "" when nothing is plain). */
export function didYouMean(typed: string, verbs: readonly string[]): string {
  const meant = closestVerbs(typed.toLowerCase(), verbs);
  return meant.length ? `. Did you mean ${meant.join(' or ')}?` : '';
}

function closestVerbs(word: string, verbs: readonly string[]): string[] {
  const synonym = SYNONYMS[word]?.find((v) => verbs.includes(v));
  if (synonym) return [synonym];
  // The nearest spellings (two letters off in a longer word), ties all named: sesions is session or sessions.
  const scored = verbs.map((v) => ({ v, d: editDistance(word, v) })).filter(({ v, d }) => d <= (v.length > 4 ? 2 : 1));
  const best = Math.min(...scored.map(({ d }) => d));
  const near = scored.filter(({ d }) => d === best).map(({ v }) => v);
  if (near.length) return near.slice(0, 3);
  const prefixed = word.length >= 2 ? verbs.filter((v) => v.startsWith(word)) : [];
  return prefixed.length === 1 ? prefixed : [];
}

/** Every group under (and including) `cmd` names its verbs when given one it does not have. */
export function nameUnknownCommands(cmd: Command): void {
  if (!verbsOf(cmd).length) return;
  const unknown = (typed: string) => {
    const path = commandPath(cmd);
    cmd.error(`error: unknown command '${typed}' for \`${path}\` (its commands: ${verbsOf(cmd).join(', ')}) (see \`${path} --help\`)${didYouMean(typed, verbsOf(cmd))}`, {
      code: 'commander.unknownCommand',
      exitCode: 2,
    });
  };
  // unknownCommand is commander's (untyped) hook for a verb the group does not have; _dispatchHelpCommand
  // serves `help <verb>`, which for an unknown verb would print the whole help without a word on it.
  const g = cmd as Command & { unknownCommand(): void; _dispatchHelpCommand?(name?: string): unknown };
  g.unknownCommand = () => unknown(cmd.args[0]);
  const dispatchHelp = g._dispatchHelpCommand?.bind(g);
  if (dispatchHelp) {
    g._dispatchHelpCommand = (name?: string) => {
      // Through the hook (which a group may have refined since), as if the verb had been typed alone.
      if (name && !cmd.commands.some((c) => c.name() === name || c.aliases().includes(name))) {
        cmd.args = [name];
        g.unknownCommand();
      }
      return dispatchHelp(name);
    };
  }
  for (const sub of cmd.commands) nameUnknownCommands(sub);
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length];
}

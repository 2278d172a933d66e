// Commands on a site through the management API pick it with --site (or VTR_SITE), never by a key:
// a --secret-key or --token given to one names a site it would not act on (`keys rotate --secret-key
// <another site's key>` rotated the default site's keys), so it is refused rather than ignored.
import type { Command } from 'commander';
import { refusesGlobals } from './help.js';

const MARKED = new WeakSet<Command>();

/**
 * Marks every command of a group (`vtr keys ...`), but those named in `except`, as picking its site
 * with --site: action() refuses the keys, help leaves them out.
 */
export function picksSiteByFlag(group: Command, except: string[] = []): void {
  for (const cmd of group.commands) {
    if (except.includes(cmd.name())) continue;
    MARKED.add(cmd);
    refusesGlobals(cmd, ['--secret-key', '--token']);
  }
}

/** The refusals for `cmd` (none for unmarked commands): each flag and why, with the command's words. */
export function siteByFlagRefusals(cmd: Command, path: string): Partial<Record<'secretKey' | 'token', [string, string]>> {
  if (!MARKED.has(cmd)) return {};
  const why = (flag: string) =>
    [flag, `\`${path}\` picks its site with --site <site-id> (see \`vtr sites list\`), not by a key or token; leave ${flag} out (without --site it acts on the default site)`] as [string, string];
  return { secretKey: why('--secret-key'), token: why('--token') };
}

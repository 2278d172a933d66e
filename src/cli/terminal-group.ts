// Ctrl-C on a terminal is a SIGINT to its whole foreground process group: a command vtr runs in its
// own group got it already, and one sent again by vtr would be a second Ctrl-C (which many programs
// take as "stop now, skip the clean-up"). Linux says which group is in the foreground in
// /proc/<pid>/stat; elsewhere nothing is known and the signal is passed on.
import { readFileSync } from 'node:fs';

/** The process group and the terminal's foreground group (`tpgid`) of `pid`, or null when unknown. */
function groups(pid: number | 'self'): { pgrp: number; tpgid: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After "pid (comm) ": state ppid pgrp session tty_nr tpgid ...; comm may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { pgrp: Number(fields[2]), tpgid: Number(fields[5]) };
  } catch {
    return null;
  }
}

/**
 * True when a SIGINT to this process most likely came from its terminal's Ctrl-C and so reached
 * `child` too: both are in one process group, and it is the terminal's foreground group.
 */
export function terminalSignalsReach(child: number): boolean {
  const own = groups('self');
  if (!own || own.tpgid <= 0 || own.tpgid !== own.pgrp) return false;
  return groups(child)?.pgrp === own.pgrp;
}

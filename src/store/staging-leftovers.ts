// A process killed during a streamed import (SIGKILL, power loss) never removes its staging copy:
// the next import beside the same database removes every one whose process is gone. A copy of a
// live process (this one's included: another import may be under way) is never touched; a pid
// reused since only keeps a leftover a while longer. A copy written to in the last minute stays
// too: a process in another container (its pids not ours to see) may be importing into it.
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** A staging copy's name (state-staging.ts) and its SQLite companions: `.vtr-import-<pid>-<hex>.db[-wal|-shm|-journal]`. */
const STAGING = /^\.vtr-import-(\d+)-[0-9a-f]+\.db(?:-wal|-shm|-journal)?$/;

/** How long a staging copy must have been left unwritten before it may be a dead process's. */
const QUIET_MS = 60_000;

/** Whether no process has that pid: ESRCH alone says so (EPERM is another user's live process). */
function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Removes the staging copies in `dir` left by processes that are no longer running. Best effort: never throws. */
export function removeDeadStaging(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  const dead = new Map<string, boolean>();
  for (const name of names) {
    const pid = STAGING.exec(name)?.[1];
    if (!pid || Number(pid) === process.pid || Number(pid) <= 0) continue;
    if (!dead.has(pid)) dead.set(pid, gone(Number(pid)));
    if (!dead.get(pid)) continue;
    try {
      if (Date.now() - statSync(join(dir, name)).mtimeMs < QUIET_MS) continue;
      rmSync(join(dir, name), { force: true });
    } catch {
      // Not ours to remove (another user's directory entry): it stays, as before.
    }
  }
}

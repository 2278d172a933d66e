// Start-up checks of the database file: a missing directory is created, and a file that cannot be
// written (a read-only filesystem, permissions, a leftover -wal/-shm this user cannot use) refuses
// to start with the path and the cause, instead of SQLite's bare "unable to open database file" or a
// server that starts and then answers every write with an error.
import { accessSync, constants, existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { storageFaultKind } from './storage-faults.js';

/** Creates the database's directory when it is missing; names it when that is impossible. */
/** `dbOption`: how the one who started vtr names the database file (`--db`, or the library's option). */
export function ensureDirectory(path: string, dbOption: string): void {
  const dir = dirname(resolve(path));
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    throw new Error(`cannot create the directory ${dir} for the database ${path}: ${reason(err)}; create it, or pass another ${dbOption}`);
  }
}

/** Why opening or first writing `path` failed, in words that name the file and what to do. */
export function openFailure(path: string, err: unknown, dbOption: string): Error {
  const kind = storageFaultKind(err);
  const sqlite = `${(err as { code?: string }).code ?? 'error'}: ${(err as Error).message}`;
  if (kind === 'full') {
    return new Error(`the database ${path} cannot be written: its disk is full (${sqlite}); free space on that volume, or pass another ${dbOption}`);
  }
  const code = (err as { code?: string }).code;
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
    return new Error(`${path} is not a SQLite database vtr can read (${sqlite}); pass another ${dbOption}, or move this file away`);
  }
  if (kind !== 'read_only') return err as Error;
  // Permissions are not the problem: a folder given where the file goes.
  if (statSync(path, { throwIfNoEntry: false })?.isDirectory()) {
    return new Error(`the database ${path} is a directory; give a file for ${dbOption}, e.g. ${join(path, 'vtr.db')}`);
  }
  return new Error(`the database ${path} cannot be written: ${whyNotWritable(path) ?? sqlite}; make it writable by this user, or pass another ${dbOption}`);
}

/** The first of the file, its -wal/-shm and its directory that this user cannot write, and why. */
function whyNotWritable(path: string): string | null {
  const dir = dirname(resolve(path));
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    if (!existsSync(file)) continue;
    try {
      accessSync(file, constants.W_OK);
    } catch (err) {
      const leftover = file === path ? '' : ' (left over from an earlier run; SQLite needs to write it)';
      return `${file}${leftover}: ${reason(err)}`;
    }
  }
  try {
    accessSync(dir, constants.W_OK);
  } catch (err) {
    return `its directory ${dir}: ${reason(err)} (SQLite creates the -wal and -shm files beside it)`;
  }
  if (existsSync(path) && !statSync(path).isFile()) return `${path} is not a file`;
  return null;
}

function reason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EROFS') return 'the filesystem is read-only (EROFS)';
  if (code === 'EACCES' || code === 'EPERM') return `permission denied (${code})`;
  if (code === 'ENOSPC') return 'the disk is full (ENOSPC)';
  if (code === 'ENOTDIR') return 'a part of the path is a file, not a directory (ENOTDIR)';
  return (err as Error).message;
}

// Start-up checks of the database file: a missing directory is created, and a file that cannot be
// written (a read-only filesystem, permissions, a leftover -wal/-shm this user cannot use) refuses
// to start with the path and the cause, instead of SQLite's bare "unable to open database file" or a
// server that starts and then answers every write with an error. A path SQLite cannot keep a
// database at (a kernel filesystem such as /proc, a device, a named pipe) is refused before opening.
import { accessSync, constants, existsSync, mkdirSync, rmdirSync, rmSync, statSync, statfsSync, type Stats } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { VtrError } from '../domain/errors.js';
import { storageFaultKind } from './storage-faults.js';

/** Creates the database's directory when it is missing; names it when that is impossible. */
/** `dbOption`: how the one who started vtr names the database file (`--db`, or the library's option). */
/** Returns the directories it made, outermost first. */
export function ensureDirectory(path: string, dbOption: string): string[] {
  const dir = dirname(resolve(path));
  const made: string[] = [];
  try {
    makeDirectory(dir, made);
    return made;
  } catch (err) {
    removeDirectories(made);
    // A file where a directory of the path goes: creating the directory by hand would fail too.
    const code = (err as NodeJS.ErrnoException).code;
    const fix = code === 'EEXIST' || code === 'ENOTDIR' ? 'move that file away' : 'create it';
    throw new Error(`cannot create the directory ${dir} for the database ${path}: ${reason(err)}; ${fix}, or pass another ${dbOption}`);
  }
}

// One level at a time, not mkdirSync's `recursive`: on a filesystem that answers ENOENT to a mkdir
// whose parent exists (/proc), Node's retries that mkdir forever.
function makeDirectory(dir: string, made: string[]): void {
  if (statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return;
  const parent = dirname(dir);
  if (parent !== dir && !existsSync(parent)) makeDirectory(parent, made);
  try {
    mkdirSync(dir);
    made.push(dir);
  } catch (err) {
    // Another process may have made it meanwhile.
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || !statSync(dir).isDirectory()) throw err;
  }
}

// Linux's filesystems that show the kernel's state as files (statfs f_type): nothing is stored there.
const KERNEL_FILESYSTEMS = new Map<number, string>([
  [0x9fa0, 'proc'], [0x62656572, 'sysfs'], [0x1cd1, 'devpts'], [0x64626720, 'debugfs'], [0x74726163, 'tracefs'],
  [0x27e0eb, 'cgroup'], [0x63677270, 'cgroup2'], [0x73636673, 'securityfs'], [0xcafe4a11, 'bpf'],
]);

const SPECIAL_FILES: Array<[(s: Stats) => boolean, string]> = [
  [(s) => s.isCharacterDevice(), 'a character device'], [(s) => s.isBlockDevice(), 'a block device'],
  [(s) => s.isFIFO(), 'a named pipe (FIFO)'], [(s) => s.isSocket(), 'a socket'],
];

function statOrNull(path: string): Stats | null {
  try {
    return statSync(path, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null; // not reachable (permissions, a file as a directory): opening the file says why
  }
}

function kernelFilesystem(path: string): string | undefined {
  try {
    return KERNEL_FILESYSTEMS.get(statfsSync(path).type);
  } catch {
    return undefined; // not readable: opening the file says why
  }
}

/** Refuses a path SQLite cannot keep a database at: a kernel filesystem, a device, a pipe, a socket. */
export function refuseSpecialPath(path: string, dbOption: string): void {
  // SQLite would create a file named without the slash, that the rest of the start then cannot stat.
  const trailing = process.platform === 'win32' ? /[\\/]+$/ : /\/+$/;
  if (trailing.test(path) && path.replace(trailing, '') !== '') {
    throw new VtrError('database_is_directory', `the database ${path} ends in ${path.at(-1)}, a directory; give a file for ${dbOption}, e.g. ${join(path, 'vtr.db')}`);
  }
  const stats = statOrNull(path);
  const special = stats && SPECIAL_FILES.find(([is]) => is(stats));
  if (special) throw new Error(`the database ${path} is ${special[1]}, not a file; give a file for ${dbOption}, e.g. .vtr/vtr.db`);
  if (process.platform !== 'linux') return;
  let existing = resolve(path);
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  const fs = kernelFilesystem(existing);
  if (fs) throw new Error(`the database ${path} is on ${fs}, a kernel filesystem that cannot hold a database; give a file on a disk for ${dbOption}, e.g. .vtr/vtr.db`);
}

/**
 * Why opening or first writing `path` failed, in words that name the file and what to do. `busyMs`:
 * how long SQLite waited for another process's write lock.
 */
export function openFailure(path: string, err: unknown, dbOption: string, busyMs: number): Error {
  // Each with a code (the running server's where one fits), so a test suite can tell a refused start apart.
  const kind = storageFaultKind(err);
  const sqlite = `${(err as { code?: string }).code ?? 'error'}: ${(err as Error).message}`;
  if (kind === 'full') {
    return new VtrError('insufficient_storage', `the database ${path} cannot be written: its disk is full (${sqlite}); free space on that volume, or pass another ${dbOption}`);
  }
  const code = (err as { code?: string }).code;
  if (code === 'SQLITE_BUSY') {
    return new VtrError('database_busy', `the database ${path} is locked: another process is writing to it and kept its write lock for over ${busyMs / 1000} s (${sqlite}); start again once it is done, or pass another ${dbOption}`);
  }
  if (code === 'SQLITE_NOTADB') {
    return new VtrError('database_not_sqlite', `${path} is not a SQLite database vtr can read (${sqlite}); pass another ${dbOption}, or move this file away`);
  }
  // A SQLite file whose pages are damaged (cut short by an interrupted copy, a disk error): what
  // the running server says of damage, so the rows still readable can be saved (SQLITE_CORRUPT_*
  // codes too: an index or a virtual table found damaged).
  if (code?.startsWith('SQLITE_CORRUPT')) {
    return new VtrError('database_corrupt', `the database ${path} is damaged (${sqlite}); pass another ${dbOption} (a state export loads with --import), or move this file away: \`sqlite3 ${path} .recover\` may save the rows that can still be read`);
  }
  if (kind !== 'read_only') return err as Error;
  // Permissions are not the problem: a folder given where the file goes.
  if (statOrNull(path)?.isDirectory()) {
    return new VtrError('database_is_directory', `the database ${path} is a directory; give a file for ${dbOption}, e.g. ${join(path, 'vtr.db')}`);
  }
  return new VtrError('database_read_only', `the database ${path} cannot be written: ${whyNotWritable(path) ?? sqlite}; make it writable by this user, or pass another ${dbOption}`);
}

/**
 * A storage fault met by a start's own first writes (the default site, the clock's value): a
 * request's words (nothing of this request, writes resuming by themselves) do not fit a start that
 * stops, the open's do. Any other error as it is.
 */
export function startFailure(err: unknown, path: string, dbOption: string, busyMs: number): unknown {
  const sqlite = err instanceof VtrError ? err.cause : undefined;
  if (sqlite == null || (storageFaultKind(sqlite) == null && (sqlite as { code?: unknown }).code !== 'SQLITE_BUSY')) return err;
  return openFailure(path, sqlite, dbOption, busyMs);
}

/**
 * Refuses an existing database (or its -wal/-shm) this user cannot write before SQLite opens it:
 * opening it would leave a -wal and a -shm as read-only as the file, which then refuse the next start
 * as leftovers after the file itself was made writable.
 */
export function refuseUnwritable(path: string, dbOption: string): void {
  if (statOrNull(path)?.isDirectory()) return; // opening it says it is a directory
  const why = unwritable(path);
  if (why) throw new VtrError('database_read_only', `the database ${path} cannot be written: ${why}; make it writable by this user, or pass another ${dbOption}`);
}

/** The first of the file and its -wal/-shm that exists and this user cannot write, and why. */
function unwritable(path: string): string | null {
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    if (!existsSync(file)) continue;
    try {
      accessSync(file, constants.W_OK);
    } catch (err) {
      const leftover = file === path ? '' : ' (left over from an earlier run; SQLite needs to write it)';
      return `${file}${leftover}: ${reason(err)}`;
    }
  }
  return null;
}

/** The first of the file, its -wal/-shm and its directory that this user cannot write, and why. */
function whyNotWritable(path: string): string | null {
  const dir = dirname(resolve(path));
  const file = unwritable(path);
  if (file) return file;
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
  if (code === 'ENOTDIR' || code === 'EEXIST') return `a part of the path is a file, not a directory (${code})`;
  return (err as Error).message;
}

/** Which of the database file and its -wal/-shm are missing now (the ones an open would create). */
export function missingFiles(path: string): string[] {
  return [path, `${path}-wal`, `${path}-shm`].filter((f) => !existsSync(f));
}

/**
 * After a refused start (a full disk), removes what the open created, so no empty database is left
 * to be taken for one. Never a file that was there before; a -wal beside a database that was there
 * only when empty (one with frames may hold what a checkpoint had not copied back yet).
 */
/** The directories a start made for its database (outermost first), innermost first, each only when empty. */
export function removeDirectories(made: string[]): void {
  for (const dir of [...made].reverse()) {
    try {
      rmdirSync(dir);
    } catch {
      // not empty (something else was put there meanwhile), or already gone: left as it is
    }
  }
}

export function removeCreated(path: string, created: string[]): void {
  const ours = created.includes(path);
  for (const file of created) {
    if (!ours && file.endsWith('-wal') && (statOrNull(file)?.size ?? 0) > 0) continue;
    try {
      rmSync(file, { force: true });
    } catch {
      // left as it is: the start's own error says what is wrong
    }
  }
}

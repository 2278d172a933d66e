// File paths given on the command line are checked before anything is started or sent: a path that
// names nothing to read, a directory where a file is wanted, or a directory vtr cannot write in is a
// bad argument (exit 2), whichever command took it. What goes wrong while reading or writing (a full
// disk, contents that are not what was expected) stays an operation failure (exit 1).
import { accessSync, constants, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from './errors.js';

/** `--flag ` for an option, '' for a positional argument: how messages name where the path came from. */
const named = (flag: string | null, file: string) => (flag ? `${flag} ${file}` : file);

/** `file` when it can be opened for reading as a file; else (blank, missing, a directory) a usage error saying what to give instead. */
export function fileToRead(flag: string | null, file: string, instead: string): string {
  if (file.trim() === '') throw new UsageError(`${flag ?? '<file>'}: give ${instead} (a shell variable left unset?)`);
  let isDir: boolean;
  try {
    isDir = statSync(file).isDirectory();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new UsageError(`${named(flag, file)}: no such file`);
    return file; // permissions and the like: reading says why, as an operation failure
  }
  if (isDir) throw new UsageError(`${named(flag, file)}: it is a directory; give ${instead}`);
  return file;
}

/** `file` when vtr can write it; else (blank, a directory, no writable directory) a usage error saying what to do. */
export function fileToWrite(flag: string | null, file: string): string {
  const prefix = flag ? `${flag}: ` : '';
  if (file.trim() === '') throw new UsageError(`${prefix}give a file name`);
  if (isDirectory(file)) throw new UsageError(`${prefix}${file} is a directory; give a file name, e.g. state.json`);
  const dir = dirname(file);
  const notWritable = `${prefix}cannot write ${file}: ${dir} is not a directory vtr can write to`;
  if (!isDirectory(dir)) {
    if (exists(dir)) throw new UsageError(notWritable);
    throw new UsageError(`${prefix}cannot write ${file}: the directory ${dir} does not exist; create it first (mkdir -p ${dir})`);
  }
  try {
    accessSync(resolve(dir), constants.W_OK);
  } catch (err) {
    throw new UsageError(`${notWritable} (${(err as NodeJS.ErrnoException).code})`);
  }
  return file;
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Everything on stdin (a file given as `-`). On a terminal, `note` first says what vtr waits for:
 * else `vtr check --data -` typed by hand just hangs.
 */
export async function readStdin(note?: (line: string) => void, stdin: NodeJS.ReadableStream & { isTTY?: boolean } = process.stdin): Promise<Buffer> {
  const end = process.platform === 'win32' ? 'Ctrl-Z then Enter' : 'Ctrl-D';
  if (stdin.isTTY) note?.(`vtr: reading JSON from stdin; end it with ${end} (or give a file instead of -)`);
  const chunks: Buffer[] = [];
  for await (const c of stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

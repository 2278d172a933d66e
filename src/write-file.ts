// A state file written whole or not at all (`vtr state export`, `serve --export-on-exit`), and why
// not in terms of the path the user gave: never the temporary file it is written to first.
import { rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** The file could not be written (its message says why, naming only the file and its directory). */
export class WriteFailed extends Error {
  override name = 'WriteFailed';
}

/**
 * Writes beside the target, then renames: an interrupted write never leaves half a file. Rejects
 * with a WriteFailed saying why. `bytes` are written as they come (an export of any size is never
 * held whole); an error of theirs (a connection cut) is rejected with as it is, the target left as
 * it was.
 */
export async function writeAtomically(file: string, bytes: Iterable<Uint8Array> | AsyncIterable<Uint8Array>): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  let sourceFailed: { error: unknown } | null = null;
  async function* guarded(chunks: Iterable<Uint8Array> | AsyncIterable<Uint8Array>) {
    try {
      for await (const chunk of chunks) yield chunk;
    } catch (error) {
      sourceFailed = { error };
      throw error;
    }
  }
  try {
    await writeFile(tmp, guarded(bytes));
    await rename(tmp, file);
  } catch (err) {
    // Half a file on a full disk would keep holding the space it took.
    await rm(tmp, { force: true }).catch(() => undefined);
    if (sourceFailed) throw (sourceFailed as { error: unknown }).error;
    throw new WriteFailed(await whyNotWritten(file, err as NodeJS.ErrnoException));
  }
}

async function whyNotWritten(file: string, err: NodeJS.ErrnoException): Promise<string> {
  const isDir = await stat(file).then((s) => s.isDirectory(), () => false);
  if (isDir) return 'it is a directory; give a file name, e.g. state.json';
  const dir = dirname(file);
  if (err.code === 'ENOENT' && !(await stat(dir).then(() => true, () => false))) return `the directory ${dir} does not exist; create it first`;
  if (err.code === 'EACCES' || err.code === 'EPERM' || err.code === 'EROFS') return `${dir} is not writable (${err.code})`;
  // Node's message ends with the temp file's path: keep only its first part ("ENOSPC: no space left on device").
  return err.message.split(',')[0];
}

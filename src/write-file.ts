// A state file written whole or not at all (`vtr state export`, `serve --export-on-exit`), and why
// not in terms of the path the user gave: never the temporary file it is written to first.
import { rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Writes beside the target, then renames: an interrupted write never leaves half a file. Rejects
 * with an Error whose message says why, naming only `file` and its directory. `data`: text (a final
 * newline added), or bytes as they come (an export of any size, never held whole); an error of
 * theirs (a connection cut) is rejected with as it is, the target left as it was.
 */
export async function writeAtomically(file: string, data: string | Iterable<Uint8Array> | AsyncIterable<Uint8Array>): Promise<void> {
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
    await writeFile(tmp, typeof data === 'string' ? (data.endsWith('\n') ? data : `${data}\n`) : guarded(data));
    await rename(tmp, file);
  } catch (err) {
    // Half a file on a full disk would keep holding the space it took.
    await rm(tmp, { force: true }).catch(() => undefined);
    if (sourceFailed) throw (sourceFailed as { error: unknown }).error;
    throw new Error(await whyNotWritten(file, err as NodeJS.ErrnoException));
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

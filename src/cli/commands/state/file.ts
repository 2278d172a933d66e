// Reading and writing state files on the CLI's side (the server never sees the path).
import { readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { OperationError } from '../../errors.js';
import { fileToRead } from '../../file-paths.js';
import { fileText, parseJsonFileText } from '../../../domain/json-text.js';

/** Writes next to the target, then renames: an interrupted export never leaves half a file. */
export async function writeStateFile(file: string, text: string): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    await writeFile(tmp, `${text}\n`);
    await rename(tmp, file);
  } catch (err) {
    // A failed write or rename (the target a directory, a full disk) must not leave the temp file behind.
    await rm(tmp, { force: true }).catch(() => undefined);
    throw new OperationError(`cannot write ${file}: ${await whyNotWritten(file, err as NodeJS.ErrnoException)}`);
  }
}

/** Why a state file could not be written, in terms of the path given (never the temp file's). */
async function whyNotWritten(file: string, err: NodeJS.ErrnoException): Promise<string> {
  const isDir = await stat(file).then((s) => s.isDirectory(), () => false);
  if (isDir) return 'it is a directory; give a file name, e.g. state.json';
  const dir = dirname(file);
  if (err.code === 'ENOENT' && !(await stat(dir).then(() => true, () => false))) return `the directory ${dir} does not exist; create it first`;
  if (err.code === 'EACCES' || err.code === 'EPERM' || err.code === 'EROFS') return `${dir} is not writable (${err.code})`;
  // Node's message ends with the temp file's path: keep only its first part ("ENOSPC: no space left on device").
  return err.message.split(',')[0];
}

/** How messages name the file: "-" is stdin. */
export const fileName = (file: string): string => (file === '-' ? 'stdin' : file);

/** The parsed file ("-": stdin); a missing file is a usage error, bad JSON an operation error. */
export async function readStateFile(file: string): Promise<unknown> {
  if (file !== '-') fileToRead(null, file, 'the file a state export was written to');
  let text: string;
  try {
    text = fileText(file === '-' ? await readStdin() : await readFile(file));
  } catch (err) {
    throw new OperationError(`cannot read ${fileName(file)}: ${(err as Error).message}`);
  }
  try {
    return parseJsonFileText(text);
  } catch (err) {
    throw new OperationError(`${fileName(file)} is not a vtr state export: not JSON (${(err as Error).message})`);
  }
}

async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

// Reading and writing state files on the CLI's side (the server never sees the path).
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { OperationError, UsageError } from '../../errors.js';

/** Writes next to the target, then renames: an interrupted export never leaves half a file. */
export async function writeStateFile(file: string, text: string): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    await writeFile(tmp, `${text}\n`);
    await rename(tmp, file);
  } catch (err) {
    // A failed write or rename (the target a directory, a full disk) must not leave the temp file behind.
    await rm(tmp, { force: true }).catch(() => undefined);
    throw new OperationError(`cannot write ${file}: ${(err as Error).message}`);
  }
}

/** The parsed file ("-": stdin); a missing file is a usage error, bad JSON an operation error. */
export async function readStateFile(file: string): Promise<unknown> {
  let text: string;
  try {
    text = file === '-' ? await readStdin() : await readFile(file, 'utf8');
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'ENOENT') throw new UsageError(`${file}: no such file`);
    throw new OperationError(`cannot read ${file}: ${e.message}`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new OperationError(`${file} is not a vtr state export: not JSON (${(err as Error).message})`);
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

// Reading and writing state files on the CLI's side (the server never sees the path).
import { readFile } from 'node:fs/promises';
import { OperationError } from '../../errors.js';
import { fileToRead, readStdin } from '../../file-paths.js';
import { fileText, jsonFileProblem } from '../../../domain/json-text.js';
import { writeAtomically, WriteFailed } from '../../../write-file.js';

/**
 * Written whole or not at all, as the bytes come; a failure to write names the file and why (an
 * operation failure). One of the bytes' source (a connection cut) is rejected with as it is.
 */
export async function writeStateFile(file: string, bytes: AsyncIterable<Uint8Array>): Promise<void> {
  await writeAtomically(file, bytes).catch((err: unknown) => {
    throw err instanceof WriteFailed ? new OperationError(`cannot write ${file}: ${err.message}`) : err;
  });
}

/** How messages name the file: "-" is stdin. */
export const fileName = (file: string): string => (file === '-' ? 'stdin' : file);

/**
 * The file ("-": stdin) as UTF-8 JSON text to send as it is: the emulator parses it and says what is
 * wrong. Parsing it here too, and writing it again, took several times the file's size in memory.
 * A missing file is a usage error; one that cannot be JSON (not an object) an operation error.
 */
export async function readStateFile(file: string, note?: (line: string) => void): Promise<Uint8Array> {
  if (file !== '-') fileToRead(null, file, 'the file a state export was written to');
  let bytes: Uint8Array;
  try {
    bytes = file === '-' ? await readStdin(note) : await readFile(file);
  } catch (err) {
    throw new OperationError(`cannot read ${fileName(file)}: ${(err as Error).message}`);
  }
  // UTF-16 (Notepad's "Unicode") is the one encoding read into text and written again as UTF-8.
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) bytes = Buffer.from(fileText(bytes), 'utf8');
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
  const first = bytes.findIndex((b) => b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09);
  if (bytes[first] !== 0x7b) {
    const what = first < 0 ? 'it is empty' : `it does not start with {`;
    throw new OperationError(`${fileName(file)} is not a vtr state export: not JSON (${what})`);
  }
  return bytes;
}

/** The emulator's "not valid JSON" about a file sent as it was (`sent`), in the words of the file. */
export function notJson(file: string, message: string, sent: Uint8Array): OperationError {
  const why = jsonFileProblem(message.replace(/^the body is not valid JSON:?\s*/, ''), fileText(sent));
  return new OperationError(`${fileName(file)} is not a vtr state export: not JSON (${why})`);
}

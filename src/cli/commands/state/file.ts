// Reading and writing state files on the CLI's side (the server never sees the path).
import { createReadStream } from 'node:fs';
import { OperationError } from '../../errors.js';
import { fileToRead } from '../../file-paths.js';
import { endsEarly, fileText, jsonFileProblem } from '../../../domain/json-text.js';
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

/** Up to this size a file is read whole and sent as it is; a bigger one is sent as it is read. */
export const WHOLE_AT_MOST = 16 * 1024 * 1024;

/** A file too big to hold, sent as it is read: its chunks (UTF-8), and how many characters went. */
export interface StreamedFile {
  chunks: AsyncIterable<Uint8Array>;
  chars(): number;
}

/**
 * The file ("-": stdin) as UTF-8 JSON text to send as it is: the emulator parses it and says what is
 * wrong. Parsing it here too, and writing it again, took several times the file's size in memory;
 * past WHOLE_AT_MOST it is not even held, but sent as it is read. A missing file is a usage error;
 * one that cannot be JSON (not an object) an operation error.
 */
export async function readStateFile(file: string, note?: (line: string) => void): Promise<Uint8Array | StreamedFile> {
  if (file !== '-') fileToRead(null, file, 'the file a state export was written to');
  const source = (file === '-' ? stdinOf(note) : createReadStream(file)) as AsyncIterable<Buffer>;
  const it = source[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let size = 0;
  const next = () => it.next().catch((err: Error) => {
    throw new OperationError(`cannot read ${fileName(file)}: ${err.message}`);
  });
  for (;;) {
    const r = await next();
    if (r.done) return wholeText(file, Buffer.concat(head, size));
    head.push(r.value);
    size += r.value.length;
    if (size > WHOLE_AT_MOST) break;
  }
  const start = head[0];
  const le = start[0] === 0xff && start[1] === 0xfe;
  const be = start[0] === 0xfe && start[1] === 0xff;
  startsAsObject(file, le || be ? Buffer.from(fileText(start.subarray(0, 4096)), 'utf8') : start.subarray(0, 4096));
  let chars = 0;
  async function* chunks(): AsyncGenerator<Uint8Array> {
    // UTF-16 is read into text and sent as UTF-8, as a whole file is.
    const utf16 = le || be ? new TextDecoder(le ? 'utf-16le' : 'utf-16be') : null;
    for (let chunk = head.shift(); chunk; ) {
      if (utf16) {
        const text = utf16.decode(chunk, { stream: true });
        chars += text.length;
        yield Buffer.from(text, 'utf8');
      } else {
        chars += utf8Length(chunk, chunk === start);
        yield chunk;
      }
      chunk = head.shift();
      if (!chunk) {
        const r = await next();
        if (!r.done) chunk = r.value;
      }
    }
  }
  return { chunks: chunks(), chars: () => chars };
}

/** stdin; on a terminal `note` first says what vtr waits for (see readStdin). */
function stdinOf(note?: (line: string) => void): NodeJS.ReadableStream {
  const end = process.platform === 'win32' ? 'Ctrl-Z then Enter' : 'Ctrl-D';
  if (process.stdin.isTTY) note?.(`vtr: reading JSON from stdin; end it with ${end} (or give a file instead of -)`);
  return process.stdin;
}

/** Characters in UTF-8 bytes, as a JS string counts them (one beyond U+FFFF is two); a BOM is none. */
function utf8Length(bytes: Uint8Array, first: boolean): number {
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if ((b & 0xc0) !== 0x80) n += b >= 0xf0 ? 2 : 1;
  }
  if (first && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) n--;
  return n;
}

/** A whole file: UTF-16 made UTF-8, a byte-order mark dropped, and it must start as an object. */
function wholeText(file: string, read: Uint8Array): Uint8Array {
  let bytes = read;
  // UTF-16 (Notepad's "Unicode") is the one encoding read into text and written again as UTF-8.
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) bytes = Buffer.from(fileText(bytes), 'utf8');
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
  startsAsObject(file, bytes);
  return bytes;
}

function startsAsObject(file: string, bytes: Uint8Array): void {
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)) i++;
  if (bytes[i] !== 0x7b) {
    const what = i >= bytes.length ? 'it is empty' : `it does not start with {`;
    throw new OperationError(`${fileName(file)} is not a vtr state export: not JSON (${what})`);
  }
}

/** The emulator's "not valid JSON" about a file sent as it was (`sent`), in the words of the file. */
export function notJson(file: string, message: string, sent: Uint8Array | StreamedFile): OperationError {
  const detail = message.replace(/^the body is not valid JSON:?\s*/, '');
  const why = sent instanceof Uint8Array ? jsonFileProblem(detail, fileText(sent)) : /Unexpected end of JSON input/.test(detail) ? endsEarly(sent.chars()) : detail;
  return new OperationError(`${fileName(file)} is not a vtr state export: not JSON (${why})`);
}

// The JSON text of a frozen object is made once and kept beside it. Frozen here means that neither
// it nor anything under it changes again (a cached session, a visitor check's result): the store
// writes the text a check's answer then sends, and an app polling a session is sent the same text
// again and again. An answer is sent as UTF-8 bytes, also made once: a string would be measured and
// encoded again for every answer (its Content-Length, the socket, the request log's copy).
const texts = new WeakMap<object, string>();
const bytes = new WeakMap<object, Uint8Array>();
const utf8 = new TextEncoder();

const frozenObject = (value: unknown): value is object => value !== null && typeof value === 'object' && Object.isFrozen(value);

/** JSON.stringify, made once per frozen object. */
export function jsonText(value: unknown): string {
  if (!frozenObject(value)) return JSON.stringify(value);
  let text = texts.get(value);
  if (text === undefined) texts.set(value, (text = JSON.stringify(value)));
  return text;
}

/** The JSON text to send: a frozen object's as UTF-8 bytes made once, anything else's as text. */
export function jsonAnswer(value: unknown): string | Uint8Array {
  if (!frozenObject(value)) return JSON.stringify(value);
  let answer = bytes.get(value);
  if (answer === undefined) bytes.set(value, (answer = utf8.encode(texts.get(value) ?? JSON.stringify(value))));
  return answer;
}

/**
 * A file's bytes as text: UTF-8, or UTF-16 when they start with a UTF-16 byte order mark (Notepad's
 * "Unicode", the files PowerShell 5's `>` writes), without a leading byte order mark (UTF-8 as
 * Windows editors save it), as the API's body reader does.
 */
export function fileText(bytes: Uint8Array): string {
  const le = bytes[0] === 0xff && bytes[1] === 0xfe;
  const be = bytes[0] === 0xfe && bytes[1] === 0xff;
  const text = new TextDecoder(le ? 'utf-16le' : be ? 'utf-16be' : 'utf-8', { ignoreBOM: true }).decode(bytes);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** JSON.parse of a file's bytes (see fileText); a SyntaxError says what is wrong with the file (see jsonFileProblem). */
export function parseJsonFile(bytes: Uint8Array): unknown {
  const text = fileText(bytes);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new SyntaxError(jsonFileProblem((err as Error).message, text));
  }
}

/**
 * Why JSON.parse refused a file's `text`, from its message: empty, or cut short (a copy or download
 * interrupted), which the parser words as a character it expected at the end; else its own words.
 */
export function jsonFileProblem(message: string, text: string): string {
  if (text.trim() === '') return 'it is empty';
  const at = /at position (\d+)/.exec(message);
  if (/Unexpected end of JSON input|Unterminated string/.test(message) || (at && Number(at[1]) >= text.trimEnd().length)) {
    return endsEarly(text.length);
  }
  return message;
}

/** A file's text that ends before its JSON does, after `chars` characters. */
export const endsEarly = (chars: number): string => `it ends early, after ${chars} characters: cut short while written or copied?`;

/**
 * Where JSON.parse stops reading `text`, as its message gives it ("at position N"), with the line
 * and column (from 1) a person finds it at in an editor; null when it reads to the end.
 */
export function whereJsonStops(text: string): { position: number; line: number; column: number } | null {
  try {
    JSON.parse(text);
    return null;
  } catch (err) {
    const at = /at position (\d+)/.exec((err as Error).message);
    if (!at) return null;
    const position = Number(at[1]);
    let line = 1;
    let lineStart = 0;
    for (let i = text.indexOf('\n'); i !== -1 && i < position; i = text.indexOf('\n', i + 1)) {
      line++;
      lineStart = i + 1;
    }
    return { position, line, column: position - lineStart + 1 };
  }
}

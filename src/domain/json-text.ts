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
 * Where JSON.parse stops reading `text` (its message's "at position N", or found from prefixes when
 * it names none), with the line and column (from 1) a person finds it at in an editor; null when it
 * reads to the end.
 */
/** The longest text whose stop is searched for when JSON.parse's message names no position. */
export const SEARCHED_CHARS = 4 * 1024 * 1024;

export function whereJsonStops(text: string): { position: number; line: number; column: number } | null {
  const message = parseError(text);
  if (message === null || viable(text, message)) return null;
  const at = /at position (\d+)/.exec(message);
  // The search parses the text some 20 times over: past SEARCHED_CHARS it would hold the event loop for seconds.
  if (!at && text.length > SEARCHED_CHARS) return null;
  const position = at ? Number(at[1]) : shortestNotViable(text) - 1;
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < position; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { position, line, column: position - lineStart + 1 };
}

const parseError = (text: string): string | null => {
  try {
    JSON.parse(text);
    return null;
  } catch (err) {
    return (err as Error).message;
  }
};

/** Whether `text` (which JSON.parse refused with `message`) could still begin a JSON document: it only ends early. */
function viable(text: string, message: string): boolean {
  if (/Unexpected end of JSON input/.test(message)) return true;
  const at = /at position (\d+)/.exec(message);
  return at !== null && Number(at[1]) >= text.length;
}

/**
 * The length of the shortest prefix of `text` that no JSON document begins with, for a message that
 * names no position (V8's "Unexpected token 'x', "…" is not valid JSON"): a prefix of one that
 * could still begin one could too, so a binary search over JSON.parse of prefixes finds it.
 */
function shortestNotViable(text: string): number {
  let lo = 0;
  let hi = text.length;
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    const prefix = text.slice(0, mid);
    const message = parseError(prefix);
    if (message === null || viable(prefix, message)) lo = mid;
    else hi = mid;
  }
  return hi;
}

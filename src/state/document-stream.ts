// Reads a state document as it arrives (a request body, a file): stream-json's tokenizer yields
// tokens chunk by chunk, and each row of `tables.<name>` is assembled alone and handed to the sink,
// so memory holds one chunk and one row, whatever the document's size.
import type { Token } from 'stream-json/core/parser.js';
import type { Assembler as AssemblerType } from 'stream-json/core/assembler.js';
import type * as Defs from 'stream-chain/defs.js';
import { VtrError } from '../domain/errors.js';
import { whereJsonStops } from '../domain/json-text.js';
import type { DocumentSink } from '../store/state-staging.js';

// The parser loads on the first streamed import, not with the server: every start would pay for it.
let parts: Promise<{ jsonParser: typeof import('stream-json/core/parser.js').jsonParser; Assembler: typeof AssemblerType; defs: typeof Defs }> | undefined;
const load = () =>
  (parts ??= Promise.all([import('stream-json/core/parser.js'), import('stream-json/core/assembler.js'), import('stream-chain/defs.js')]).then(
    ([p, a, defs]) => ({ jsonParser: p.jsonParser, Assembler: a.Assembler, defs }),
  ));

type Decoder = InstanceType<typeof TextDecoder>;

/** The top-level fields an import reads besides tables; any other is skipped, as the import ignores it. */
const FIELDS = new Set(['vtr_state_version', 'exported_at', 'schema_version']);

// The text of a document up to this size is kept while it is read, so a syntax error in it names
// its character, line and column (JSON.parse's position in it); past it, the chunk it is in.
const KEPT_CHARS = 16 * 1024 * 1024;

export interface ReadProgress {
  /** Characters read (the text's length, as JSON.parse would have seen it). */
  chars: number;
  /** Whether anything but white space came. */
  content: boolean;
}

export interface ReadOptions {
  /** A file's text may be UTF-16 (with its byte-order mark); a request body is UTF-8. */
  utf16?: boolean;
  /** Asked between chunks: true ends the read (the error `stopped` makes). */
  stopped?: () => boolean;
  stop?: () => Error;
  progress?: ReadProgress;
  /** The error for no bytes at all (a file); without it they are a document that is no object (no body). */
  empty?: () => Error;
}

/** The document's text, chunk by chunk, from its bytes: UTF-8 (a request body), or a file's encoding. */
async function* textOf(bytes: AsyncIterable<Uint8Array | string>, utf16: boolean): AsyncGenerator<string> {
  let decoder: Decoder | null = null;
  for await (const chunk of bytes) {
    if (typeof chunk === 'string') {
      yield chunk;
      continue;
    }
    if (!decoder) {
      const le = utf16 && chunk[0] === 0xff && chunk[1] === 0xfe;
      const be = utf16 && chunk[0] === 0xfe && chunk[1] === 0xff;
      // A file is read as it always was (a bad byte becomes U+FFFD); a body must be UTF-8.
      decoder = new TextDecoder(le ? 'utf-16le' : be ? 'utf-16be' : 'utf-8', { fatal: !utf16 });
    }
    yield decode(decoder, chunk, true);
  }
  if (decoder) yield decode(decoder, undefined, false);
}

function decode(decoder: Decoder, chunk: Uint8Array | undefined, stream: boolean): string {
  try {
    return decoder.decode(chunk, { stream });
  } catch {
    throw new VtrError('invalid_json', 'the body is not valid UTF-8');
  }
}

/**
 * Feeds the document to `sink` (see DocumentSink). A body that is not JSON is the contract's
 * `invalid_json`: "Unexpected end of JSON input" (JSON.parse's words) when it ends before the
 * document does, else the parser's words and where. An empty one is no object (as no body is).
 */
export async function readStateDocument(bytes: AsyncIterable<Uint8Array | string>, sink: DocumentSink, opts: ReadOptions = {}): Promise<void> {
  const progress = opts.progress ?? { chars: 0, content: false };
  const { jsonParser, Assembler, defs } = await load();
  const parser = jsonParser({ streamValues: false });
  const walk = walker(sink, Assembler);
  let first = true;
  let kept: string[] | null = [];
  const feed = (input: string | typeof Defs.none, from: number) => {
    let out: ReturnType<typeof parser>;
    try {
      out = parser(input as string);
    } catch (err) {
      const why = (err as Error).message.replace(/^Parser (cannot parse input|has expected)/, (m) => (m.endsWith('input') ? 'cannot parse' : 'expected'));
      if (input === defs.none) throw new VtrError('invalid_json', 'the body is not valid JSON: Unexpected end of JSON input');
      const at = kept && whereJsonStops(kept.join(''));
      const where = at ? ` at position ${at.position} (line ${at.line} column ${at.column})` : ` (in characters ${from} to ${progress.chars})`;
      throw new VtrError('invalid_json', `the body is not valid JSON: ${why}${where}`);
    }
    if (out === defs.none) return;
    if (defs.isMany(out)) for (const token of defs.getManyValues(out) as Token[]) walk(token);
    else walk(out as Token);
  };
  for await (let text of textOf(bytes, opts.utf16 ?? false)) {
    if (opts.stopped?.()) throw opts.stop!();
    if (first && text.length > 0) {
      // A byte-order mark is no part of the JSON (a UTF-8 decoder drops it, a file's too).
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      first = false;
    }
    if (text.length === 0) continue;
    const from = progress.chars;
    progress.chars += text.length;
    if (kept && progress.chars > KEPT_CHARS) kept = null;
    kept?.push(text);
    if (!progress.content && /\S/.test(text)) progress.content = true;
    feed(text, from);
  }
  if (progress.chars === 0) {
    if (opts.empty) throw opts.empty();
    sink.notObject();
    return;
  }
  feed(defs.none, progress.chars);
}

/**
 * The walk over the tokens: where each value stands (the document, a top-level field, `tables`, a
 * table, a row), which ones it assembles (a field's value, a row) and which it skips (whatever the
 * import does not read). A skipped or assembled container takes its own closing token.
 */
function walker(sink: DocumentSink, Assembler: typeof AssemblerType): (token: Token) => void {
  let where: 'start' | 'top' | 'tables' | 'rows' | 'end' = 'start';
  let key = '';
  let wantRows = false;
  let asm: AssemblerType | null = null;
  let assembled: (value: unknown) => void = () => undefined;
  /** Containers open in the value being skipped. */
  let skipping = 0;

  const opens = (t: Token) => t.name === 'startObject' || t.name === 'startArray';
  const closes = (t: Token) => t.name === 'endObject' || t.name === 'endArray';
  const feed = (t: Token) => {
    asm!.consume(t);
    if (!asm!.done) return;
    const value = asm!.current;
    asm = null;
    assembled(value);
  };
  const assemble = (t: Token, then: (value: unknown) => void) => {
    asm = new Assembler();
    assembled = then;
    feed(t);
  };
  const skip = (t: Token) => {
    if (opens(t)) skipping = 1;
  };

  return (t) => {
    if (asm) return feed(t);
    if (skipping > 0) {
      if (opens(t)) skipping++;
      else if (closes(t)) skipping--;
      return;
    }
    if (t.name === 'keyValue') {
      key = t.value;
      return;
    }
    if (closes(t)) {
      where = where === 'rows' ? 'tables' : where === 'tables' ? 'top' : 'end';
      return;
    }
    switch (where) {
      case 'start':
        if (t.name === 'startObject') where = 'top';
        else {
          sink.notObject();
          where = 'end';
          skip(t);
        }
        return;
      case 'top': {
        const k = key;
        if (k === 'tables') {
          sink.tables(t.name === 'startObject');
          if (t.name === 'startObject') where = 'tables';
          else skip(t);
        } else if (FIELDS.has(k)) assemble(t, (value) => sink.field(k, value));
        else skip(t);
        return;
      }
      case 'tables':
        wantRows = sink.table(key, t.name === 'startArray');
        if (t.name === 'startArray') where = 'rows';
        else skip(t);
        return;
      case 'rows':
        if (wantRows) {
          assemble(t, (value) => {
            wantRows = sink.row(value);
          });
        } else skip(t);
        return;
      default:
        skip(t);
    }
  };
}

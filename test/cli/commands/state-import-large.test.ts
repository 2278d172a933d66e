// `vtr state import` of a file too big to hold: sent as it is read, and still said of the file.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/client/api-client.js';
import type { CliContext } from '../../../src/cli/context.js';
import { run } from '../../../src/cli/commands/state/import.js';
import { WHOLE_AT_MOST } from '../../../src/cli/commands/state/file.js';
import { tempDir } from '../../helpers/vtr-process.js';

/** A state document just over the size the CLI holds whole, with non-ASCII text in it. */
function bigText(): string {
  const value = 'é✓'.repeat(1024);
  const count = Math.ceil(WHOLE_AT_MOST / Buffer.byteLength(value)) + 1;
  const rows = Array.from({ length: count }, (_, i) => JSON.stringify({ key: `k${i}`, value }));
  return `{"vtr_state_version":1,"schema_version":1,"tables":{"meta":[${rows.join(',')}]}}`;
}

const ctxOf = (admin: (method: string, path: string, opts: { json?: unknown }) => Promise<unknown>) =>
  ({ interactive: false, config: { json: true }, io: { stdout: { write: () => true }, stderr: { write: () => true } }, info: () => {}, client: async () => ({ origin: 'http://127.0.0.1:1', admin }) }) as unknown as CliContext;

describe('vtr state import of a large file', { timeout: 60_000 }, () => {
  it('state import: a file bigger than what is held whole is sent as it is read, byte for byte', async () => {
    const text = bigText();
    const file = join(tempDir('vtr-state-'), 'big.json');
    writeFileSync(file, text);
    let chunks = 0;
    let sent = '';
    await run({ args: [file], yes: true } as never, ctxOf(async (_m, _p, opts) => {
      expect(opts.json).not.toBeInstanceOf(Uint8Array);
      const parts: Buffer[] = [];
      for await (const c of opts.json as AsyncIterable<Uint8Array>) {
        parts.push(Buffer.from(c));
        chunks++;
      }
      sent = Buffer.concat(parts).toString('utf8');
      return { imported: true, tables: { meta: 1 } };
    }));
    expect(chunks).toBeGreaterThan(1);
    expect(sent).toBe(text);
  });

  it('state import: such a file cut short says it ends early, after how many characters', async () => {
    const text = bigText().slice(0, -40);
    const file = join(tempDir('vtr-state-'), 'cut.json');
    writeFileSync(file, text);
    const ctx = ctxOf(async (_m, _p, opts) => {
      for await (const c of opts.json as AsyncIterable<Uint8Array>) void c;
      throw new ApiError(400, 'invalid_json', 'the body is not valid JSON: Unexpected end of JSON input');
    });
    await expect(run({ args: [file], yes: true } as never, ctx)).rejects.toThrow(`${file} is not a vtr state export: not JSON (it ends early, after ${text.length} characters: cut short while written or copied?)`);
  });
});

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/client/api-client.js';
import type { CliContext } from '../../../src/cli/context.js';
import { run } from '../../../src/cli/commands/state/import.js';
import { tempDir } from '../../helpers/vtr-process.js';

describe('vtr state import', () => {
  it('state import: a file over the running emulator\'s body limit is refused with the way that loads it (serve --import)', async () => {
    const file = join(tempDir('vtr-state-'), 'big.json');
    writeFileSync(file, JSON.stringify({ vtr_state_version: 1, schema_version: 1, tables: {} }));
    const client = {
      origin: 'http://127.0.0.1:1',
      admin: async () => {
        throw new ApiError(413, 'payload_too_large', 'the body is larger than 262144 KiB');
      },
    };
    const ctx = { interactive: false, client: async () => client } as unknown as CliContext;
    await expect(run({ args: [file] }, ctx)).rejects.toThrow(`${file} is too big to import into a running emulator (the body is larger than 262144 KiB); load it at start-up instead: vtr serve --import ${file}. Nothing changed.`);
  });

  it('state import -: stdin is named stdin, in the error and in the summary', async () => {
    const summary: string[] = [];
    const client = { origin: 'http://127.0.0.1:1', admin: async () => ({ imported: true, tables: { sites: 1 }, default_site_created: null }) };
    const ctx = { interactive: false, config: { json: false }, io: { stdout: { write: (s: string) => summary.push(s) }, stderr: { write: () => true } }, info: () => {}, client: async () => client } as unknown as CliContext;
    const stdin = Object.getOwnPropertyDescriptor(process, 'stdin')!;
    const feed = (text: string) => Object.defineProperty(process, 'stdin', { value: Readable.from([Buffer.from(text)]), configurable: true });
    try {
      feed('not json');
      await expect(run({ args: ['-'] }, ctx)).rejects.toThrow(/^stdin is not a vtr state export: not JSON/);
      feed(JSON.stringify({ vtr_state_version: 1, schema_version: 1, tables: { sites: [] } }));
      await run({ args: ['-'] }, ctx);
      expect(summary.join('')).toMatch(/^Imported from stdin: 1 site\(s\)/);
    } finally {
      Object.defineProperty(process, 'stdin', stdin);
    }
  });

  it('state import: a file that starts with a byte order mark (saved by a Windows editor) is imported', async () => {
    const file = join(tempDir('vtr-state-'), 'bom.json');
    const doc = { vtr_state_version: 1, schema_version: 1, tables: { sites: [] } };
    writeFileSync(file, `\uFEFF${JSON.stringify(doc)}`);
    let sent: unknown;
    const client = {
      origin: 'http://127.0.0.1:1',
      admin: async (_method: string, _path: string, opts: { json?: Uint8Array }) => {
        sent = JSON.parse(Buffer.from(opts.json!).toString('utf8'));
        return { imported: true, tables: { sites: 0 } };
      },
    };
    const ctx = { interactive: false, config: { json: true }, io: { stdout: { write: () => true }, stderr: { write: () => true } }, info: () => {}, client: async () => client } as unknown as CliContext;
    await run({ args: [file], yes: true } as never, ctx);
    expect(sent).toEqual(doc);
  });

  it('state import: a file saved as UTF-16 with its byte order mark (Notepad "Unicode", PowerShell 5 `>`) is imported', async () => {
    const doc = { vtr_state_version: 1, schema_version: 1, tables: { sites: [{ name: 'Café ✓' }] } };
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`${JSON.stringify(doc, null, 2)}\r\n`, 'utf16le')]);
    const be = Buffer.from(le).swap16();
    for (const [name, bytes] of [['le.json', le], ['be.json', be]] as const) {
      const file = join(tempDir('vtr-state-'), name);
      writeFileSync(file, bytes);
      let sent: unknown;
      const client = {
        origin: 'http://127.0.0.1:1',
        admin: async (_method: string, _path: string, opts: { json?: Uint8Array }) => {
          sent = JSON.parse(Buffer.from(opts.json!).toString('utf8'));
          return { imported: true, tables: { sites: 1 } };
        },
      };
      const ctx = { interactive: false, config: { json: true }, io: { stdout: { write: () => true }, stderr: { write: () => true } }, info: () => {}, client: async () => client } as unknown as CliContext;
      await run({ args: [file], yes: true } as never, ctx);
      expect(sent, name).toEqual(doc);
    }
  });

  it('state import: a file without sites says the default site it created, and where its keys are', async () => {
    const file = join(tempDir('vtr-state-'), 'nosites.json');
    writeFileSync(file, JSON.stringify({ vtr_state_version: 1, schema_version: 1, tables: {} }));
    const client = { origin: 'http://127.0.0.1:1', admin: async () => ({ imported: true, tables: {}, default_site_created: 'site_new', clock_behind_ms: null }) };
    let out = '';
    const ctx = { interactive: false, config: { json: false }, io: { stdout: { write: (t: string) => ((out += t), true) }, stderr: { write: () => true } }, info: () => {}, client: async () => client } as unknown as CliContext;
    await run({ args: [file], yes: true } as never, ctx);
    expect(out).toContain(`Imported ${file}: 0 site(s), 0 session(s), 0 check(s), 0 webhook(s). The file has no site: created the default site site_new with new keys (see \`vtr keys show\`, \`vtr tokens list\`).`);
  });

  it('state import: the file is sent as written, not parsed and written again (a large export takes its size in memory, not several times it)', async () => {
    const file = join(tempDir('vtr-state-'), 'pretty.json');
    const text = `${JSON.stringify({ vtr_state_version: 1, schema_version: 1, tables: { meta: [{ key: 'a', value: 'é' }] } }, null, 2)}\n`;
    writeFileSync(file, text);
    let sent: Uint8Array | undefined;
    const client = {
      origin: 'http://127.0.0.1:1',
      admin: async (_method: string, _path: string, opts: { json?: Uint8Array }) => {
        sent = opts.json;
        return { imported: true, tables: {} };
      },
    };
    const ctx = { interactive: false, config: { json: true }, io: { stdout: { write: () => true }, stderr: { write: () => true } }, info: () => {}, client: async () => client } as unknown as CliContext;
    await run({ args: [file], yes: true } as never, ctx);
    expect(Buffer.from(sent!).toString('utf8')).toBe(text);
  });

  it('state import: a file the emulator finds is not JSON is named as not a state export', async () => {
    const file = join(tempDir('vtr-state-'), 'cut.json');
    writeFileSync(file, '{"vtr_state_version": 1, "tables": {');
    const client = {
      origin: 'http://127.0.0.1:1',
      admin: async () => {
        throw new ApiError(400, 'invalid_json', 'the body is not valid JSON: Unexpected end of JSON input');
      },
    };
    const ctx = { interactive: false, client: async () => client } as unknown as CliContext;
    await expect(run({ args: [file], yes: true } as never, ctx)).rejects.toThrow(`${file} is not a vtr state export: not JSON (it ends early, after 36 characters: cut short while written or copied?)`);
  });
});

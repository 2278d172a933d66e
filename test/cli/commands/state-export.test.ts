// `vtr state export` writes the answer as it arrives (an export may be gigabytes): to a temporary
// file renamed when whole, or to stdout. A connection cut part way is an error, never a short file.
import { createServer, type Server } from 'node:http';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../../src/client/api-client.js';
import type { CliContext } from '../../../src/cli/context.js';
import { run } from '../../../src/cli/commands/state/export.js';
import { tempDir } from '../../helpers/vtr-process.js';

const DOC = `${JSON.stringify({ vtr_state_version: 1, exported_at: '2026-11-21T09:00:00.000000', schema_version: 7, tables: { sites: [{ site_id: 's' }], sessions: [] } }, null, 2)}\n`;
const COUNTS = JSON.stringify({ sites: 1, sessions: 0 });

let server: Server | null = null;
afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));
// A port of its own each time: a kept-alive connection to the one before is not reused.
let port = 0;

/** An emulator stand-in: `cutAt` bytes of DOC sent, then the connection dropped. */
async function serve(cutAt?: number): Promise<string> {
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(DOC)), 'vtr-state-tables': COUNTS });
    if (cutAt === undefined) return res.end(DOC);
    res.write(DOC.slice(0, cutAt), () => setTimeout(() => res.socket?.destroy(), 20));
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  port = (server.address() as { port: number }).port;
  return `http://127.0.0.1:${port}/api/v1`;
}

function context(baseUrl: string) {
  const out: string[] = [];
  const info: string[] = [];
  const client = createApiClient({ baseUrl });
  const stdout = { write: (s: string | Uint8Array, cb?: () => void) => (out.push(Buffer.from(s).toString('utf8')), cb?.(), true), on: () => stdout, once: () => stdout };
  const ctx = { interactive: false, config: { json: false }, io: { stdout, stderr: { write: () => true } }, info: (l: string) => info.push(l), client: async () => client } as unknown as CliContext;
  return { ctx, out, info };
}

describe('vtr state export', () => {
  it('state export: the answer is written as it came, and summed up from its counts', async () => {
    const { ctx, out, info } = context(await serve());
    const file = join(tempDir('vtr-export-'), 'state.json');
    await run({ args: [file] }, ctx);
    expect(readFileSync(file, 'utf8')).toBe(DOC);
    // The result, on stdout as `state import`'s is; not a hint that --quiet hides.
    expect(out.join('')).toBe(`Exported to ${file}: 1 site(s), 0 session(s), 0 check(s), 0 webhook(s).\n`);
    expect(info).toEqual([]);
  });

  it('state export: a connection cut part way is an error; the file there before is as it was, no temporary file stays', async () => {
    const { ctx } = context(await serve(40));
    const dir = tempDir('vtr-export-');
    const file = join(dir, 'state.json');
    writeFileSync(file, 'before');
    await expect(run({ args: [file] }, ctx)).rejects.toThrow(`the emulator at http://127.0.0.1:${port} closed the connection before the whole export came; not exported, ${file} is as it was`);
    expect(readFileSync(file, 'utf8')).toBe('before');
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  it('state export: a cut part way leaves no file where there was none', async () => {
    const { ctx } = context(await serve(40));
    const dir = tempDir('vtr-export-');
    await expect(run({ args: [join(dir, 'new.json')] }, ctx)).rejects.toThrow(/closed the connection before the whole export came; not exported$/);
    expect(existsSync(join(dir, 'new.json'))).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('state export -: stdout gets the answer as it came; a cut is an error after what came', async () => {
    const whole = context(await serve());
    await run({ args: ['-'] }, whole.ctx);
    expect(whole.out.join('')).toBe(DOC);
    await new Promise<void>((r) => server!.close(() => r()));
    const cut = context(await serve(40));
    await expect(run({ args: ['-'] }, cut.ctx)).rejects.toThrow(`the emulator at http://127.0.0.1:${port} closed the connection before the whole export came; what stdout got is cut short`);
  });
});

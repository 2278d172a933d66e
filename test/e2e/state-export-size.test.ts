// `vtr state export` of a database with thousands of sessions: the answer streams into the file
// (src/store/state-export.ts), which imports back whole. 200,000 sessions, too slow for the suite,
// are measured in docs/state-and-logs.md.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, startServer, tempDir, type ServerProcess } from '../helpers/vtr-process.js';

const servers: ServerProcess[] = [];
afterAll(() => Promise.all(servers.map((s) => s.stop())));

describe('state export of thousands of sessions', { timeout: 120_000 }, () => {
  it('state export: the file is written whole, summed up, and imports back into another emulator', async () => {
    const a = await startServer(['--memory', '-q']);
    servers.push(a);
    expect((await runCli(['sessions', 'simulate', '--count', '4000', '--seed', 'export'], { env: a.env })).code).toBe(0);
    const dir = tempDir('vtr-export-');
    const file = join(dir, 'state.json');
    const exported = await runCli(['state', 'export', file, '--json'], { env: a.env, timeoutMs: 60_000 });
    expect(exported.code, exported.stderr).toBe(0);
    expect(JSON.parse(exported.stdout).tables.sessions).toBe(4000);
    const text = readFileSync(file, 'utf8');
    const doc = JSON.parse(text);
    expect(doc.tables.sessions).toHaveLength(4000);
    // The format state files always had.
    expect(text).toBe(`${JSON.stringify(doc, null, 2)}\n`);

    const b = await startServer(['--memory', '-q']);
    servers.push(b);
    const imported = await runCli(['state', 'import', file, '--yes'], { env: b.env, timeoutMs: 60_000 });
    expect(imported.code, imported.stderr).toBe(0);
    const again = await runCli(['state', 'export', '-'], { env: b.env, timeoutMs: 60_000 });
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).tables).toEqual(doc.tables);
  });
});

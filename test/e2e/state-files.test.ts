// A state file that is not whole (cut short by an interrupted copy or download, or empty), given to
// `vtr state import` and to `serve --import`/`exec --import`: both say what is wrong with the file.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startServer, tempDir, type ServerProcess } from '../helpers/vtr-process.js';

let server: ServerProcess;
let dir: string;
let whole: string;

beforeAll(async () => {
  server = await startServer(['--memory', '-q']);
  dir = tempDir();
  const file = join(dir, 'state.json');
  expect((await runCli(['state', 'export', file], { env: server.env })).code).toBe(0);
  whole = readFileSync(file, 'utf8');
});
afterAll(() => server?.stop());

describe('state files that are not whole', { timeout: 60_000 }, () => {
  it('state import and --import: an export cut short says it ends early, wherever the cut falls', async () => {
    // In a key, in a string value (non-ASCII before it), between values.
    const text = whole.replace('"Local site"', '"Lökal site"');
    const cuts = [Math.floor(text.length / 2), text.indexOf('"Lökal site"') + 4, text.indexOf('"tables"') + 11];
    for (const at of cuts) {
      const file = join(dir, `cut-${at}.json`);
      writeFileSync(file, text.slice(0, at));
      const why = `not JSON (it ends early, after ${at} characters: cut short while written or copied?)`;
      const imported = await runCli(['state', 'import', file, '--yes'], { env: server.env });
      expect(imported.code, imported.stderr).toBe(1);
      expect(imported.stderr).toBe(`vtr: error: ${file} is not a vtr state export: ${why}\n`);
      const exec = await runCli(['exec', '--import', file, '--', 'true']);
      expect(exec.code, exec.stderr).toBe(1);
      expect(exec.stderr).toBe(`vtr: error: --import ${file}: ${why}\n`);
    }
  });

  it('state import and --import: an empty file says it is empty', async () => {
    const file = join(dir, 'empty.json');
    writeFileSync(file, '\n');
    const imported = await runCli(['state', 'import', file, '--yes'], { env: server.env });
    expect(imported.stderr).toBe(`vtr: error: ${file} is not a vtr state export: not JSON (it is empty)\n`);
    const exec = await runCli(['exec', '--import', file, '--', 'true']);
    expect(exec.code).toBe(1);
    expect(exec.stderr).toBe(`vtr: error: --import ${file}: not JSON (it is empty)\n`);
  });
});

describe('state files not given', { timeout: 60_000 }, () => {
  it('state export / import: without a file, the usage error says a file or - (stdout, stdin) goes there', async () => {
    const exp = await runCli(['state', 'export'], { env: server.env });
    expect(exp.code).toBe(2);
    expect(exp.stderr).toBe('vtr: usage error: missing <file>: give the file to write, or - for stdout, e.g. `vtr state export state.json` or `vtr state export - > state.json`\n');
    const imp = await runCli(['state', 'import'], { env: server.env });
    expect(imp.code).toBe(2);
    expect(imp.stderr).toBe('vtr: usage error: missing <file>: give a file written by `vtr state export`, or - for stdin, e.g. `vtr state import state.json`\n');
  });
});

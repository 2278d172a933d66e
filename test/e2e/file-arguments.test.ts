// File paths on the command line, on the built binary: the same mistake gives the same exit code
// whichever command took the path (README, exit codes: a bad argument is a usage error).
import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir, suiteServer, vtr } from '../helpers/foundation-e2e.js';

const suite = suiteServer();

describe('file arguments (built binary)', { timeout: 120_000 }, () => {
  it('a file that does not exist: exit 2 naming it, in serve, exec, state import and check', async () => {
    const missing = join(scratchDir(), 'nope.json');
    const cases: Array<[string[], string]> = [
      [['serve', '--memory', '--port', '0', '--import', missing], `--import ${missing}: no such file`],
      [['exec', '--import', missing, '--', 'true'], `--import ${missing}: no such file`],
      [['state', 'import', missing], `${missing}: no such file`],
      [['check', '--data', missing], `--data ${missing}: no such file`],
    ];
    for (const [args, message] of cases) {
      const r = await vtr(args, suite.server.env);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toBe(`vtr: usage error: ${message}\n`);
      expect(r.stdout).toBe('');
    }
  });

  it('a directory where a file is wanted: exit 2 naming it, whether the file is read or written', async () => {
    const dir = scratchDir();
    const cases: string[][] = [
      ['serve', '--memory', '--port', '0', '--import', dir],
      ['exec', '--import', dir, '--', 'true'],
      ['serve', '--memory', '--port', '0', '--export-on-exit', dir],
      ['state', 'import', dir, '--yes'],
      ['state', 'export', dir],
      ['check', '--data', dir],
    ];
    for (const args of cases) {
      const r = await vtr(args, suite.server.env);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^vtr: usage error: .*${dir}:? (it )?is a directory; give `));
    }
    expect(readdirSync(dir)).toEqual([]);
  });

  it('state export into a directory that does not exist: exit 2 as --export-on-exit, naming it and how to make it', async () => {
    const dir = join(scratchDir(), 'fixtures');
    const target = join(dir, 'demo.json');
    const r = await vtr(['state', 'export', target], suite.server.env);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toBe(`vtr: usage error: cannot write ${target}: the directory ${dir} does not exist; create it first (mkdir -p ${dir})\n`);
    const onExit = await vtr(['serve', '--memory', '--port', '0', '--export-on-exit', target]);
    expect(onExit.code).toBe(2);
    expect(onExit.stderr).toBe(`vtr: usage error: --export-on-exit: cannot write ${target}: the directory ${dir} does not exist; create it first (mkdir -p ${dir})\n`);
    expect(existsSync(dir)).toBe(false);
    mkdirSync(dir);
    expect((await vtr(['state', 'export', target], suite.server.env)).code).toBe(0);
    expect(existsSync(target)).toBe(true);
  });

  it('check --data "" (a shell variable left unset): a usage error naming --data, not an error about reading ""', async () => {
    for (const data of ['', ' ']) {
      const r = await vtr(['check', '--data', data], suite.server.env);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe('vtr: usage error: --data: give a JSON file, or - for stdin (a shell variable left unset?)\n');
    }
  });
});

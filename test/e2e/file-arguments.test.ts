// File paths on the command line, on the built binary: the same mistake gives the same exit code
// whichever command took the path (README, exit codes: a bad argument is a usage error).
import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
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

  it('a file whose contents are wrong (not JSON, not an object): exit 1 naming the file, in serve, exec, state import and check', async () => {
    const dir = scratchDir();
    const notJson = join(dir, 'not-json.json');
    writeFileSync(notJson, '{nope');
    const array = join(dir, 'array.json');
    writeFileSync(array, '[1]');
    const cases: string[][] = [
      ['serve', '--memory', '--port', '0', '--import', notJson],
      ['exec', '--import', notJson, '--', 'true'],
      ['state', 'import', notJson, '--yes'],
      ['check', '--data', notJson],
      ['check', '--data', array],
    ];
    for (const args of cases) {
      const r = await vtr(args, suite.server.env);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`^vtr: error: .*${args.includes('--data') ? args[2] : notJson}`));
      expect(r.stdout).toBe('');
    }
    for (const input of ['{nope', '[1]', '{"external_id":1e400}']) {
      const r = await vtr(['check', '--data', '-'], suite.server.env, { input });
      expect(r.code, `${input}: ${r.stderr}`).toBe(1);
      expect(r.stderr).toMatch(/^vtr: error: --data - \(stdin\): /);
    }
  });

  it('serve and exec --db that cannot hold a database file (a directory, a path through a file, a device): exit 1 naming --db, the command not run', async () => {
    const dir = scratchDir();
    const file = join(dir, 'notes.txt');
    writeFileSync(file, '');
    const ran = join(dir, 'ran');
    const cases: Array<[string, string]> = [
      [dir, `the database ${dir} is a directory; give a file for --db, e.g. ${join(dir, 'vtr.db')}`],
      [`${dir}/`, `the database ${dir}/ ends in /, a directory; give a file for --db, e.g. ${join(dir, 'vtr.db')}`],
      [join(file, 'vtr.db'), `cannot create the directory ${file} for the database ${join(file, 'vtr.db')}: a part of the path is a file, not a directory (EEXIST); move that file away, or pass another --db`],
      [join(file, 'a', 'vtr.db'), `cannot create the directory ${join(file, 'a')} for the database ${join(file, 'a', 'vtr.db')}: a part of the path is a file, not a directory (ENOTDIR); move that file away, or pass another --db`],
      ['/dev/null', 'the database /dev/null is a character device, not a file; give a file for --db, e.g. .vtr/vtr.db'],
    ];
    for (const [db, message] of cases) {
      for (const args of [['serve', '--port', '0', '--db', db], ['exec', '--db', db, '--', process.execPath, '-e', `require('fs').writeFileSync(${JSON.stringify(ran)}, '')`]]) {
        const r = await vtr(args);
        // The emulator could not start: exit 1 with its reason (contract, vtr exec), serve alike.
        expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(1);
        expect(r.stderr).toBe(`vtr: error: ${message}\n`);
      }
    }
    expect(existsSync(ran)).toBe(false);
    expect(readdirSync(dir)).toEqual(['notes.txt']);
  });

  it('serve and exec --db "" or blank (a shell variable left unset): exit 2 naming --db, never a database no one can find', async () => {
    const cwd = scratchDir();
    for (const db of ['', ' ']) {
      for (const args of [['serve', '--port', '0', '--db', db], ['exec', '--db', db, '--', 'true']]) {
        const r = await vtr(args, {}, { cwd });
        expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
        expect(r.stderr).toBe('vtr: usage error: --db: give a file name (or --memory to keep nothing)\n');
      }
    }
    expect(readdirSync(cwd)).toEqual([]);
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

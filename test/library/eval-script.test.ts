// `node --input-type=module -e '...'`: a script given on the command line starts an emulator on a
// database file (the built package: its checkpoint worker runs only from dist). The worker thread
// must start there too, not print that checkpoints fell back to the server thread.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const LIB = pathToFileURL(resolve('dist/index.js')).href; // npm test builds first

let dir = '';
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('library: a script given with -e', () => {
  it('startEmulator: with a db file under --input-type=module, the checkpoint worker starts and vtr says nothing on stderr', () => {
    dir = mkdtempSync(join(tmpdir(), 'vtr-eval-'));
    const script = `const { startEmulator } = await import(${JSON.stringify(LIB)});
      const emu = await startEmulator({ listen: false, db: ${JSON.stringify(join(dir, 'vtr.db'))} });
      await emu.sessions.create({});
      await new Promise((r) => setTimeout(r, 300));
      await emu.close();
      console.log('done');`;
    for (const flag of [['--input-type=module'], ['--input-type', 'module']]) {
      const run = spawnSync(process.execPath, [...flag, '-e', script], { encoding: 'utf8', timeout: 10_000 });
      expect(run.stdout).toContain('done');
      expect(run.stderr).not.toContain('vtr:');
      expect(run.status).toBe(0);
    }
  }, 20_000);
});

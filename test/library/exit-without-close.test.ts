// A script or suite that ends without emu.close(): the emulator holds no port with `listen: false`,
// so nothing of it keeps the process alive, with a database file as in memory (the built package,
// as a user's process loads it: its checkpoint worker runs only from dist).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const LIB = pathToFileURL(resolve('dist/index.js')).href; // npm test builds first

let dir = '';
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('library: process exit', () => {
  it('startEmulator: with listen false and a db file, a process that never calls close() still ends', () => {
    dir = mkdtempSync(join(tmpdir(), 'vtr-exit-'));
    const script = `const { startEmulator } = await import(${JSON.stringify(LIB)});
      const emu = await startEmulator({ listen: false, db: ${JSON.stringify(join(dir, 'vtr.db'))} });
      await emu.sessions.create({});
      console.log('done');`;
    writeFileSync(join(dir, 'script.mjs'), script);
    const run = spawnSync(process.execPath, [join(dir, 'script.mjs')], { encoding: 'utf8', timeout: 10_000 });
    expect(run.stdout).toContain('done');
    expect(run.signal).toBeNull(); // not killed by the timeout
    expect(run.status).toBe(0);
  }, 20_000);
});

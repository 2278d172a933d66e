// `vtr serve` and `vtr exec` when their stdout cannot be written (`> out.json` on a full disk):
// serve's start-up banner is what a script waits for, so it stops saying why (exit 1); exec's own
// writes fail the same way; never a stack trace.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, tempDir } from '../helpers/vtr-process.js';
import { CLEAN_ENV, envOf } from '../helpers/foundation-e2e.js';

/** Runs the built CLI with stdout on /dev/full (every write fails with ENOSPC); stderr collected. */
async function stdoutOnFullDevice(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const full = openSync('/dev/full', 'w');
  try {
    const child = spawn(process.execPath, [CLI, ...args], { env: envOf(CLEAN_ENV), stdio: ['ignore', full, 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const code = await new Promise<number | null>((r) => child.on('close', r));
    clearTimeout(timer);
    return { code, stderr };
  } finally {
    closeSync(full);
  }
}

const NO_TRACE = /\bat |node:internal|throw err|Node\.js v/;

describe.runIf(existsSync('/dev/full'))('stdout on a full disk', () => {
  it('vtr serve --json: the start line cannot be written: stops with one line on stderr, exit 1', async () => {
    const r = await stdoutOnFullDevice(['serve', '--json', '--port', '0', '--memory']);
    expect(r.stderr).toMatch(/^vtr: error: cannot write to stdout: .*no space left on device/im);
    expect(r.stderr).not.toMatch(NO_TRACE);
    expect(r.code).toBe(1);
  });

  it('vtr serve: the banner cannot be written: stops, closing its database, exit 1', async () => {
    const db = join(tempDir(), 'vtr.db');
    const r = await stdoutOnFullDevice(['serve', '--port', '0', '--db', db]);
    expect(r.stderr).toMatch(/^vtr: error: cannot write to stdout: .*no space left on device/im);
    expect(r.stderr).not.toMatch(NO_TRACE);
    expect(r.code).toBe(1);
    // Closed cleanly: the write-ahead log was folded back into the database.
    expect(existsSync(`${db}-wal`)).toBe(false);
  });

  it('vtr serve --help, vtr exec --help, vtr help serve: exit 1 saying so, no stack trace', async () => {
    for (const args of [['serve', '--help'], ['exec', '--help'], ['help', 'serve']]) {
      const r = await stdoutOnFullDevice(args);
      expect(r.stderr, args.join(' ')).toMatch(/^vtr: error: cannot write to stdout: .*no space left on device/im);
      expect(r.stderr, args.join(' ')).not.toMatch(NO_TRACE);
      expect(r.code, args.join(' ')).toBe(1);
    }
  });

  it('vtr exec: the command owns its stdout; its exit code is the result, no stack trace', async () => {
    const r = await stdoutOnFullDevice(['exec', '--', process.execPath, '-e', 'process.exitCode = 3']);
    expect(r.stderr).not.toMatch(NO_TRACE);
    expect(r.code).toBe(3);
  });
});

// `vtr exec` stopped while its emulator is still starting (a long --import, a CI job cancelled):
// the emulator closes cleanly, the command is never run, and the exit code says which signal.
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, constants, existsSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, tempDir } from '../helpers/vtr-process.js';
import { CLEAN_ENV, envOf } from '../helpers/foundation-e2e.js';

const MIN_EXPORT = '{"vtr_state_version":1,"schema_version":1,"tables":{}}\n';

/** Opens the FIFO for writing once a reader (vtr's --import) has it open. */
async function writerOnceRead(fifo: string): Promise<number> {
  for (let i = 0; i < 400; i++) {
    try {
      return openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
    } catch {
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  throw new Error('vtr never opened the --import file');
}

describe.runIf(process.platform === 'linux')('vtr exec: a signal during start-up', () => {
  it('exec: SIGTERM during --import closes the emulator cleanly, does not run the command, exit 143', async () => {
    const dir = tempDir();
    const fifo = join(dir, 'state.json');
    const db = join(dir, 'vtr.db');
    const marker = join(dir, 'ran');
    execFileSync('mkfifo', [fifo]);
    const child = spawn(process.execPath, [CLI, 'exec', '--db', db, '--import', fifo, '--', process.execPath, '-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, '')`], {
      env: envOf(CLEAN_ENV),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => child.on('close', (code, signal) => r({ code, signal })));
    const fd = await writerOnceRead(fifo);
    child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    try {
      writeSync(fd, MIN_EXPORT);
    } catch {
      // EPIPE: vtr is gone already (the assertions below say how)
    }
    closeSync(fd);
    const end = await closed;
    expect(end, stderr).toEqual({ code: 143, signal: null });
    expect(stderr).toMatch(/SIGTERM/);
    expect(existsSync(marker)).toBe(false);
    // Closed cleanly: the write-ahead log was folded back into the database.
    expect(existsSync(`${db}-wal`)).toBe(false);
  });
});

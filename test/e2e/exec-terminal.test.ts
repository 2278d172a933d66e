// `vtr exec` on a terminal (util-linux `script` gives it a pseudo-terminal): Ctrl-C there is sent by
// the terminal to the whole foreground process group, the command included.
import { execFileSync, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, tempDir } from '../helpers/vtr-process.js';

const vtr = `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)}`;

/** Whether these programs are on PATH. */
function hasTools(...names: string[]): boolean {
  return names.every((name) => {
    try {
      execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  });
}

async function until(ok: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

// The command reports each SIGINT with its sender: the terminal (si_code SI_KERNEL, 0x80) or a
// process's kill (SI_USER, with its pid); it exits 3 after 1.5 s without one.
const REPORTER = [
  'import signal, sys',
  'signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})',
  'print("ready", flush=True)',
  'while True:',
  '    i = signal.sigtimedwait({signal.SIGINT}, 1.5)',
  '    if i is None: sys.exit(3)',
  '    print("SIGINT %s" % ("terminal" if i.si_code == 0x80 else "pid %d" % i.si_pid), flush=True)',
].join('\n');

describe('vtr exec on a terminal', () => {
  it.skipIf(!hasTools('script', 'python3'))('exec: each Ctrl-C reaches the command once (from the terminal, not again from vtr), and vtr exits with its code', async () => {
    const file = join(tempDir(), 'reporter.py');
    writeFileSync(file, REPORTER);
    // `exec`: no shell waits between script and vtr. A shell that did would take the terminal's
    // SIGINT too, and dash (Debian's sh, script's shell when SHELL is unset) then ends itself.
    const cmd = `exec ${vtr} exec -- python3 ${JSON.stringify(file)}`;
    const child = spawn('script', ['-qec', cmd, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let tty = '';
    child.stdout.on('data', (d) => (tty += d));
    // script -e exits with vtr's code.
    const closed = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    await until(() => tty.includes('ready'));
    // Pressed four times: a second SIGINT sent by vtr may merge with the terminal's, not every time.
    for (let press = 1; press <= 4; press++) {
      child.stdin.write('\x03');
      await until(() => (tty.match(/SIGINT terminal/g) ?? []).length >= press);
      await new Promise((r) => setTimeout(r, 250)); // room for a second one, had vtr sent it
    }
    const code = await closed;
    expect(tty.match(/SIGINT terminal/g)).toHaveLength(4);
    expect(tty).not.toMatch(/SIGINT pid/);
    expect(code).toBe(3);
  }, 40_000);
});

// A CLI run with stdin and stderr on a pseudo-terminal (util-linux `script`), answering its prompts.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI } from './vtr-process.js';
import { CLEAN_ENV, envOf, scratchDir } from './foundation-e2e.js';

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Runs `vtr <args>` with stdin and stderr on a pseudo-terminal and stdout redirected to a file (so
 * stdout can be checked to be pure JSON); answers each prompt (by its text) in turn.
 */
export function onTty(args: string[], env: Record<string, string>, answers: Array<[string, string]> = []) {
  const out = join(scratchDir(), 'stdout');
  const cmd = `${[process.execPath, CLI, ...args].map(shellQuote).join(' ')} > ${shellQuote(out)}`;
  const child = spawn('script', ['-qec', cmd, '/dev/null'], { env: envOf(CLEAN_ENV, { CI: undefined, TERM: 'xterm-256color' }, env), stdio: ['pipe', 'pipe', 'pipe'] });
  let tty = '';
  let next = 0;
  const onData = (d: Buffer) => {
    tty += d;
    if (next < answers.length && tty.includes(answers[next][0])) child.stdin.write(`${answers[next++][1]}\r`);
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  return new Promise<{ code: number | null; tty: string; stdout: string; answered: number }>((resolve) => {
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, tty, stdout: existsSync(out) ? readFileSync(out, 'utf8') : '', answered: next });
    });
  });
}


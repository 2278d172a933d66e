// A long-running `vtr ...` (tail, receive) whose output a test watches, and a free port for it.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { CLI } from './vtr-process.js';
import { waitUntil } from './receiver.js';

export async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

/** Started with CI=1 (no TTY behaviour); `cleanup` gets a SIGKILL for a process still running at the end. */
export function spawnCli(args: string[], env: Record<string, string>, cleanup: Array<() => Promise<unknown> | void>) {
  const child: ChildProcess = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, CI: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  cleanup.push(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  return {
    stdout: () => out,
    stderr: () => err,
    lines: () => out.split('\n').filter(Boolean).map((l) => JSON.parse(l)),
    /** Its exit code once it ends by itself. */
    exited: () => exited,
    waitErr: (re: RegExp) => waitUntil(() => re.test(err), 20_000, () => `stderr: ${err}`),
    async stop(): Promise<number | null> {
      child.kill('SIGINT');
      return exited;
    },
  };
}

// E2E helpers for the foundation tests: a `vtr serve` run read as text, JSON-only CLI runs, temp dirs.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, expect } from 'vitest';
import { pollUntil } from './poll.js';
import { CLI, runCli, startServer, tempDir, type CliResult, type ServerProcess } from './vtr-process.js';

/** Env that clears every vtr credential a developer might have exported. */
export const CLEAN_ENV: Record<string, string | undefined> = {
  VTR_BASE_URL: undefined, VTR_ACCESS_TOKEN: undefined, VTR_SECRET_KEY: undefined, VTR_ADMIN_TOKEN: undefined, VTR_SITE: undefined,
  NO_COLOR: undefined, FORCE_COLOR: undefined,
};

/** Drops undefined entries (spawn would pass them on as the string "undefined"). */
export function envOf(...parts: Array<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(Object.assign({}, process.env, ...parts))) if (typeof v === 'string') out[k] = v;
  return out;
}

export interface TextServer {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Waits until stdout matches, or fails after timeoutMs. */
  waitFor(re: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** Resolves with the exit code once the process ends (sends nothing). */
  exited(): Promise<number | null>;
}

/** `vtr serve --port 0 <args>` without --json, for the human banner. */
export function startTextServer(args: string[], opts: { cwd?: string; env?: Record<string, string | undefined> } = {}): TextServer {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], {
    cwd: opts.cwd,
    env: envOf(CLEAN_ENV, opts.env ?? {}),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    waitFor: (re, timeoutMs = 60_000) =>
      pollUntil(
        () => {
          const m = out.match(re);
          if (!m && child.exitCode !== null) throw new Error(`vtr serve exited with ${child.exitCode}; stdout: ${out}; stderr: ${err}`);
          return m;
        },
        timeoutMs,
        () => `${re}; stdout: ${out}; stderr: ${err}`,
        50,
      ),
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
    exited: () => exited,
  };
}

/** Runs the CLI with a clean credential environment plus `env`. */
export function vtr(args: string[], env: Record<string, string | undefined> = {}, opts: { cwd?: string; timeoutMs?: number; input?: string } = {}): Promise<CliResult> {
  return runCli(args, { env: { ...CLEAN_ENV, ...env }, ...opts });
}

/** Runs `vtr <args> --json`, expects exit 0 and exactly one JSON document on stdout. */
export async function vtrJson<T = any>(args: string[], env: Record<string, string | undefined> = {}): Promise<T> {
  const r = await vtr([...args, '--json'], env);
  expect(r.code, `vtr ${args.join(' ')}: ${r.stderr}`).toBe(0);
  return parseOne<T>(r.stdout);
}

/** The whole of stdout must be one JSON document (plus a trailing newline). */
export function parseOne<T = any>(stdout: string): T {
  expect(stdout.endsWith('\n')).toBe(true);
  return JSON.parse(stdout) as T;
}

const dirs: string[] = [];
export function scratchDir(): string {
  const d = tempDir('vtr-e2e-');
  dirs.push(d);
  return d;
}
export function removeScratchDirs(): void {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** An HTTP request against a server's origin, answering status and parsed JSON. */
export async function http<T = any>(url: string, init: RequestInit = {}): Promise<{ status: number; body: T; headers: Headers }> {
  const res = await fetch(url, init);
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T, headers: res.headers };
}

/**
 * Whether the terminal tests run: where `script(1)` (util-linux; Debian's bsdutils) can give a
 * command a pseudo-terminal, and always under CI (.ci/run installs it; missing, they fail there).
 */
export const HAS_PTY = (process.platform === 'linux' && (() => {
  try {
    return spawnSync('script', ['-qec', 'true', '/dev/null'], { timeout: 10_000 }).status === 0;
  } catch {
    return false;
  }
})()) || !!process.env.CI;
if (!HAS_PTY) console.warn('vtr tests: terminal (TTY) tests skipped: no working `script` command to give vtr a pseudo-terminal (apt-get install bsdutils); under CI they run');

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Runs `vtr <args>` with stdout/stderr on a pseudo-terminal (Linux `script`); output merged. `input`: typed on it. */
export function vtrOnTty(args: string[], env: Record<string, string | undefined> = {}, input = ''): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const cmd = [process.execPath, CLI, ...args].map(shellQuote).join(' ');
    const child = spawn('script', ['-qec', cmd, '/dev/null'], { env: envOf(CLEAN_ENV, { CI: undefined, TERM: 'xterm-256color' }, env), stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, output });
    });
    child.stdin!.end(input);
  });
}

/** A suite's in-memory server with one session on it: started before the suite, stopped after it. */
export function suiteServer(): { readonly server: ServerProcess; readonly sessionId: string } {
  const suite = {} as { server: ServerProcess; sessionId: string };
  beforeAll(async () => {
    suite.server = await startServer(['--memory']);
    suite.sessionId = (await vtrJson(['sessions', 'create', '--ip', '198.51.100.20'], suite.server.env)).session_id;
  });
  afterAll(async () => {
    await suite.server?.stop();
    removeScratchDirs();
  });
  return suite;
}

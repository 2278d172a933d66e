// Spawning the installed command, bin/vtr, for end-to-end tests. VTR_CLI points at another build (e.g. a private
// tsup --out-dir inside the repo) so parallel work does not clobber dist/.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What users run: bin/vtr (it loads dist/, rebuilt when stale by test/helpers/global-setup.ts). */
export const CLI = process.env.VTR_CLI ?? fileURLToPath(new URL('../../bin/vtr', import.meta.url));

const made: string[] = [];

/** A fresh directory under the OS temp dir, removed after the test file (test/helpers/setup.ts). */
export function tempDir(prefix = 'vtr-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Removes every directory tempDir made in this test file (a crash test's alone is ~27 MB). */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `vtr <args>` to completion. No TTY; NO_COLOR unset unless given in env. `uid`/`gid`: run as that user (root only). */
export function runCli(args: string[], opts: { env?: Record<string, string | undefined>; input?: string; cwd?: string; timeoutMs?: number; uid?: number; gid?: number } = {}): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: opts.cwd,
      uid: opts.uid,
      gid: opts.gid,
      env: { ...process.env, CI: '1', ...opts.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code: code ?? -1, stdout, stderr });
    });
    child.stdin.end(opts.input ?? '');
  });
}

export interface ServerProcess {
  child: ChildProcess;
  baseUrl: string;
  origin: string;
  /** The default site's credentials when this start created them. */
  site: { site_id: string; site_key: string; secret_key: string; access_token: string } | null;
  /** The default site's credentials on every start. */
  defaultSite: { site_id: string; site_key: string; secret_key: string; access_token: string | null } | null;
  /** Env for runCli pointing at this server. */
  env: Record<string, string>;
  stderr(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `vtr serve --json --port 0` and resolves once it printed its address. */
export function startServer(args: string[] = [], opts: { cwd?: string; env?: Record<string, string> } = {}): Promise<ServerProcess> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [CLI, 'serve', '--json', '--port', '0', ...args], {
      cwd: opts.cwd,
      env: { ...process.env, ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`vtr serve did not start: ${err}`));
    }, 20_000);
    child.stderr!.on('data', (d) => (err += d));
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (!out.includes('\n')) reject(new Error(`vtr serve exited with ${code}: ${err}`));
    });
    child.stdout!.on('data', (d) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl === -1) return;
      clearTimeout(timer);
      const info = JSON.parse(out.slice(0, nl)) as { base_url: string; site: ServerProcess['site']; default_site: ServerProcess['defaultSite'] };
      const origin = new URL(info.base_url).origin;
      resolvePromise({
        child,
        baseUrl: info.base_url,
        origin,
        site: info.site,
        defaultSite: info.default_site,
        env: { VTR_BASE_URL: info.base_url },
        stderr: () => err,
        stop(signal = 'SIGTERM') {
          return new Promise((res) => {
            if (child.exitCode !== null || child.signalCode !== null) return res(child.exitCode);
            child.once('exit', (code) => res(code));
            child.kill(signal);
          });
        },
      });
    });
  });
}

// The processes the bench starts: `vtr serve` and the bare node:http baseline, each its own process.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_DIR, config } from './config.mjs';
import { call, pool } from './util.mjs';

const children = new Set();

/** Kills whatever the bench started that is still running (on exit or Ctrl-C). */
export function killChildren() {
  for (const c of children) c.kill('SIGKILL');
}

export function track(child) {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

export function stopChild(child) {
  return new Promise((res) => {
    if (child.exitCode !== null || child.signalCode !== null) return res();
    const t = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(t);
      res();
    });
    child.kill('SIGTERM');
  });
}

/** Starts `vtr serve --json --port 0 --db <file> [extraArgs]`; resolves once it reports its address. */
export async function startServe(name, extraArgs = [], nodeArgs = []) {
  const dir = join(config.tmp, name);
  mkdirSync(dir, { recursive: true });
  const db = join(dir, 'vtr.db');
  const errFile = join(dir, 'server.stderr');
  const args = [...nodeArgs, config.cli, 'serve', '--json', '--port', '0', '--db', db, ...extraArgs];
  const child = track(spawn(process.execPath, args, { cwd: dir, stdio: ['ignore', 'pipe', openSync(errFile, 'w')], env: { ...process.env, NO_COLOR: '1' } }));
  const stderr = () => readFileSync(errFile, 'utf8');
  const info = await new Promise((res, rej) => {
    let out = '';
    const timer = setTimeout(() => rej(new Error(`vtr serve did not start within 30 s: ${stderr()}`)), 30_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      rej(new Error(`vtr serve ${extraArgs.join(' ')} exited with ${code}: ${stderr().trim().slice(0, 400)}`));
    });
    child.stdout.on('data', (d) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl === -1) return;
      clearTimeout(timer);
      res(JSON.parse(out.slice(0, nl)));
    });
  });
  child.stdout.resume();
  return { child, pid: child.pid, db, dir, origin: new URL(info.base_url).origin, baseUrl: info.base_url, site: info.site, stderr, stop: () => stopChild(child) };
}

/** Starts bench/bare-server.mjs (or another such script: hono-floor.mjs, mock-server.mjs) with the given input (a JSON file). */
export async function startBare(responses, script = 'bare-server.mjs', args = []) {
  const file = join(config.tmp, script.replace(/\.mjs$/, '-input.json'));
  writeFileSync(file, JSON.stringify(responses));
  const child = track(spawn(process.execPath, [join(BENCH_DIR, script), file, ...args], { stdio: ['ignore', 'pipe', 'inherit'] }));
  const port = await new Promise((res, rej) => {
    child.once('exit', (code) => rej(new Error(`bare server exited with ${code}`)));
    child.stdout.once('data', (d) => res(JSON.parse(String(d)).port));
  });
  return { pid: child.pid, origin: `http://127.0.0.1:${port}`, stop: () => stopChild(child) };
}

/** Creates n sessions through the management API; returns their ids. */
export async function createSessions(emu, n, spec = {}, concurrency = 8) {
  return pool(n, concurrency, async (i) => {
    const r = await call(emu.origin, 'POST', `/_vtr/api/sites/${emu.site.site_id}/sessions`, { body: { ip: `192.0.2.${(i % 250) + 1}`, ...spec } });
    if (r.status !== 201) throw new Error(`creating a session answered ${r.status}: ${r.text.slice(0, 300)}`);
    return r.body.session_id;
  });
}

export function dbFileBytes(db) {
  let total = 0;
  for (const f of [db, `${db}-wal`, `${db}-shm`]) if (existsSync(f)) total += statSync(f).size;
  return total;
}

// vtr serve's start-up from the built binary: bad --import/--export-on-exit values, a busy port,
// --port 0, and a serve npm started that outlives npm.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { busyPort, closeBusyPorts } from '../helpers/busy-port.js';
import { CLI, runCli, startServer, tempDir, type ServerProcess } from '../helpers/vtr-process.js';

const vtr = `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)}`;
const servers: ServerProcess[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
  await closeBusyPorts();
});

describe('vtr serve start-up', () => {
  it('serve/exec: an empty --import (a shell variable left unset) is a usage error naming it, instead of starting with nothing imported', async () => {
    for (const args of [['serve', '--memory', '--port', '0', '--import', ''], ['exec', '--import', '', '--', process.execPath, '-e', 'process.exit(9)']]) {
      const r = await runCli(args, { timeoutMs: 10_000 });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toBe('vtr: usage error: --import: give the file a state export was written to (a shell variable left unset?)\n');
      expect(r.stdout).toBe('');
    }
  });

  it('serve/exec: a blank --export-on-exit is a usage error naming it, instead of a state file named with spaces', async () => {
    const cwd = tempDir();
    for (const args of [['serve', '--memory', '--port', '0', '--export-on-exit', ' '], ['exec', '--export-on-exit', '  ', '--', process.execPath, '-e', '0']]) {
      const r = await runCli(args, { cwd, timeoutMs: 10_000 });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toBe('vtr: usage error: --export-on-exit: give a file name\n');
    }
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('serve: a port in use is exit 1 naming the port and suggesting --port 0', async () => {
    const port = await busyPort();
    const started = Date.now();
    const r = await runCli(['serve', '--memory', '--port', String(port)]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`port ${port}`);
    expect(r.stderr).toContain('--port 0');
    expect(r.stdout).not.toContain('listening');
    expect(Date.now() - started).toBeLessThan(20_000); // the contract's 2 s is measured by hand; this only catches a hang
  });

  it('serve: --host localhost prints the address it is bound to, so the printed URL reaches it whichever loopback localhost resolved to', async () => {
    const v6first = fileURLToPath(new URL('../helpers/localhost-v6-first.cjs', import.meta.url));
    for (const [env, want] of [[{}, /^http:\/\/(127\.0\.0\.1|\[::1\]):\d+\/api\/v1$/], [{ NODE_OPTIONS: `--require ${v6first}` }, /^http:\/\/\[::1\]:\d+\/api\/v1$/]] as const) {
      const s = await startServer(['--memory', '--host', 'localhost'], { env });
      servers.push(s);
      expect(s.baseUrl).toMatch(want);
      // An IPv4-first client (as --dns-result-order=ipv4first makes node) is given the printed URL.
      const cli = await runCli(['health', '--json'], { env: { ...s.env, NODE_OPTIONS: '--dns-result-order=ipv4first' } });
      expect(cli.code, cli.stderr).toBe(0);
      expect(JSON.parse(cli.stdout)).toMatchObject({ status: 'ok' });
      expect((await fetch(`${s.origin}/`)).status).toBe(200);
    }
  });

  it('serve: --port 0 reports the port it got; vtr health says ok there', async () => {
    const s = await startServer(['--memory']);
    servers.push(s);
    expect(Number(new URL(s.baseUrl).port)).toBeGreaterThan(0);
    const health = await fetch(`${s.origin}/_vtr/health`);
    expect(health.status).toBe(200);
    const cli = await runCli(['health', '--json'], { env: s.env });
    expect(cli.code).toBe(0);
    expect(JSON.parse(cli.stdout)).toMatchObject({ status: 'ok' });
  });

  it('serve --json: db and imported.file are absolute paths, usable from another directory, for a --db and --import given relative', async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, 's.json'), JSON.stringify({ vtr_state_version: 1, schema_version: 1, tables: {} }));
    const child = spawn(process.execPath, [CLI, 'serve', '--json', '--port', '0', '--db', join('data', 'vtr.db'), '--import', './s.json'], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let out = '';
      const line = await new Promise<string>((resolve, reject) => {
        child.stdout!.on('data', (d) => {
          out += d;
          if (out.includes('\n')) resolve(out.split('\n')[0]);
        });
        child.on('exit', (code) => reject(new Error(`vtr serve exited with ${code}`)));
      });
      const { db, imported } = JSON.parse(line) as { db: string; imported: { file: string } };
      expect(db).toBe(join(realpathSync(cwd), 'data', 'vtr.db'));
      expect(existsSync(db)).toBe(true);
      expect(imported.file).toBe(join(realpathSync(cwd), 's.json'));
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('close', r));
    }
  });

  it('serve: started by npm, it stops when npm exits without passing SIGTERM on', async () => {
    // npx runs `sh -c vtr ...` under npm; npm's process dies and vtr is re-parented.
    const sh = spawn('sh', ['-c', `${vtr} serve --memory --port 0 --json; echo`], {
      env: { ...process.env, npm_command: 'exec' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    sh.stderr.on('data', (d) => (err += d));
    const closed = new Promise<void>((resolve) => sh.stdout.on('close', resolve));
    const origin = await new Promise<string>((resolve) => sh.stdout.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(new URL(JSON.parse(out.split('\n')[0]).base_url).origin);
    }));
    expect((await fetch(`${origin}/_vtr/health`)).status).toBe(200);
    sh.kill('SIGKILL');
    await closed; // vtr held the pipe: it closes when vtr has exited
    expect(err).toContain('npm, which started vtr, has exited');
    await expect(fetch(`${origin}/_vtr/health`)).rejects.toThrow();
  });

  it('serve --import: SIGINT during the import stops it without the banner, exit 0; the file is imported whole or not at all', async () => {
    const dir = tempDir();
    const file = join(dir, 'big.json');
    // About 50 MB: long enough to read, parse and write for the signal to come in the middle.
    const meta = Array.from({ length: 50_000 }, (_, i) => ({ key: `pad_${i}`, value: 'x'.repeat(1000) }));
    writeFileSync(file, JSON.stringify({ vtr_state_version: 1, schema_version: 1, tables: { meta } }));
    const db = join(dir, 'vtr.db');
    const child = spawn(process.execPath, [CLI, 'serve', '--db', db, '--port', '0', '--import', file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    // The database is made (the signal handlers are in) before the file is read.
    while (!existsSync(`${db}-wal`) && child.exitCode === null) await new Promise((r) => setTimeout(r, 5));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(out).not.toContain('listening');
    expect(err).toContain('SIGINT received');
    expect(err).toMatch(/vtr: stopped\n$/);
    const check = new Database(db, { readonly: true });
    const pads = (check.prepare("SELECT count(*) AS n FROM meta WHERE key LIKE 'pad_%'").get() as { n: number }).n;
    check.close();
    expect([0, 50_000]).toContain(pads);
  }, 60_000);
});

// `vtr logs`, `vtr state`, `vtr openapi` and `serve --log/--import/--export-on-exit`, driving the
// built binary (VTR_CLI points at a private build).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollUntil } from '../helpers/poll.js';
import { freePort, spawnCli } from '../helpers/cli-process.js';
import { CLI, runCli, startServer, tempDir, type ServerProcess } from '../helpers/vtr-process.js';
import { HAS_PTY } from '../helpers/foundation-e2e.js';

const until = <T>(fn: () => T | Promise<T>, what: string, timeoutMs = 20_000) => pollUntil(fn, timeoutMs, () => what);

const get = (server: ServerProcess, path: string) => fetch(`${server.baseUrl}${path}`, { headers: { authorization: `Bearer ${server.site!.access_token}` } });

describe('vtr openapi', () => {
  it('prints the document without a server, with the CLI base URL as its server', async () => {
    const r = await runCli(['openapi'], { env: { VTR_BASE_URL: 'http://127.0.0.1:9999/api/v1' } });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: 'http://127.0.0.1:9999/api/v1' }]);
    expect(Object.keys(doc.paths)).toContain('/session/{id}');
    expect(doc.paths['/_vtr/api/sites/{site_id}/rules'].servers).toEqual([{ url: 'http://127.0.0.1:9999' }]);
  });

  it('openapi: refuses a base URL that is not http(s), as every command does, printing no document', async () => {
    for (const [url, why] of [['localhost:8787/api/v1', 'is not an http'], ['127.0.0.1:8787', 'is not a URL']]) {
      const r = await runCli(['openapi', '--base-url', url]);
      expect(r.code, url).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`--base-url: "${url}" ${why}`);
    }
  });
});

describe('request log over the CLI', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServer(['--memory', '--log', 'json']);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('serve --log json prints one JSON line per public request on stderr', async () => {
    await get(server, '/session/ses_nope');
    const line = await until(() => server.stderr().split('\n').find((l) => l.includes('ses_nope')), 'a log line');
    expect(JSON.parse(line)).toMatchObject({ method: 'GET', path: '/api/v1/session/ses_nope', status: 404 });
  });

  it('logs list [--limit] [--json]', async () => {
    await get(server, '/session/ses_a');
    await get(server, '/session/ses_b');
    const r = await runCli(['logs', 'list', '--limit', '2', '--json'], { env: server.env });
    expect(r.code).toBe(0);
    const entries = JSON.parse(r.stdout) as Array<{ path: string }>;
    expect(entries.map((e) => e.path)).toEqual(['/api/v1/session/ses_b', '/api/v1/session/ses_a']);
    const text = await runCli(['logs', 'list'], { env: server.env });
    expect(text.stdout).toMatch(/GET\s+\/api\/v1\/session\/ses_b\s+404/);
    expect((await runCli(['logs', 'list', '--limit', 'x'], { env: server.env })).code).toBe(2);
  });
});

describe('serve --log pretty under a burst', () => {
  it('prints at most 100 request lines a second, then how many more there were; the request log keeps them all', async () => {
    const server = await startServer(['--memory']); // --log pretty is the default
    try {
      const n = 300;
      await Promise.all(Array.from({ length: n }, (_, i) => get(server, `/session/burst_${i}`)));
      const lines = () => server.stderr().split('\n');
      const shown = () => lines().filter((l) => /GET\s+\/api\/v1\/session\/burst_\d+ 404/.test(l)).length;
      const notes = () => lines().filter((l) => l.includes('more request'));
      const hidden = () => notes().reduce((sum, l) => sum + Number(/… ([\d,]+) more/.exec(l)![1].replace(/,/g, '')), 0);
      // The lines shown and the notes' counts add up to every request.
      await until(() => shown() + hidden() === n, 'every request shown or counted', 30_000);
      expect(notes()[0]).toMatch(/^vtr: … [\d,]+ more requests? in the last second not shown here/);
      expect(shown()).toBeGreaterThan(0);
      // At most 100 in the second the note closes (on a slow machine the burst spills into seconds
      // of 100 or fewer, shown whole with no note: they give no bound of their own).
      const beforeNote = lines().slice(0, lines().findIndex((l) => l.includes('more request')));
      expect(beforeNote.filter((l) => /GET\s+\/api\/v1\/session\/burst_\d+ 404/.test(l)).length).toBeLessThanOrEqual(100);
      const listed = await runCli(['logs', 'list', '--limit', String(n), '--json'], { env: server.env });
      expect((JSON.parse(listed.stdout) as Array<{ path: string }>).filter((e) => e.path.includes('/burst_'))).toHaveLength(n);
    } finally {
      await server.stop();
    }
  });
});

describe('vtr logs tail', () => {
  it('prints one JSON object per line, and reconnects when the server restarts', async () => {
    let server = await startServer(['--memory']);
    const port = new URL(server.origin).port;
    const tail = spawn(process.execPath, [CLI, 'logs', 'tail', '--json'], { env: { ...process.env, ...server.env, CI: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    tail.stdout.on('data', (d) => (out += d));
    tail.stderr.on('data', (d) => (err += d));
    try {
      await until(() => err.includes('Tailing'), 'tail to start'); // printed once the stream is subscribed
      await get(server, '/session/first');
      await until(() => out.includes('/api/v1/session/first'), 'the first line');
      const first = out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { path: string; status: number });
      expect(first[0]).toMatchObject({ path: '/api/v1/session/first', status: 404 });

      await server.stop();
      await until(() => /lost|reconnect/i.test(err), 'tail to notice the restart');
      server = await startServer(['--memory', '--port', port]);
      await until(async () => (await get(server, '/session/second'), out.includes('/api/v1/session/second')), 'a line after the restart', 30_000);
    } finally {
      tail.kill('SIGINT');
      await new Promise((r) => tail.once('close', r));
      await server.stop();
    }
    expect(tail.exitCode === 0 || tail.signalCode === 'SIGINT').toBe(true);
  });

  it('logs tail: after the server comes back with --clock frozen, its times are marked emulated', async () => {
    const cleanup: Array<() => Promise<unknown> | void> = [];
    let server = await startServer(['--memory']);
    const port = new URL(server.origin).port;
    const tail = spawnCli(['logs', 'tail', '--no-color'], server.env, cleanup);
    try {
      await tail.waitErr(/Tailing/);
      await get(server, '/session/before');
      await until(() => tail.stdout().includes('/api/v1/session/before'), 'the first line');
      expect(tail.stdout()).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} UTC GET/);
      await server.stop();
      await tail.waitErr(/lost the emulator/);
      const seen = tail.stderr().length;
      server = await startServer(['--memory', '--port', port, '--clock', 'frozen']);
      await until(() => /reconnected/.test(tail.stderr().slice(seen)), 'tail to reconnect', 30_000);
      await until(async () => (await get(server, '/session/after'), tail.stdout().includes('/api/v1/session/after')), 'a line after the restart', 30_000);
      const after = tail.stdout().split('\n').find((l) => l.includes('/api/v1/session/after'))!;
      expect(after).toMatch(/ UTC \(emulated\) GET /);
    } finally {
      await tail.stop();
      await server.stop();
      for (const f of cleanup) await f();
    }
  });
});

describe('vtr state', () => {
  let server: ServerProcess;
  const dir = tempDir();
  beforeAll(async () => {
    server = await startServer(['--memory']);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('export → change → import restores; reset needs --yes without a terminal', async () => {
    const file = join(dir, 'state.json');
    const made = JSON.parse((await runCli(['sessions', 'create', '--json'], { env: server.env })).stdout);
    const exp = await runCli(['state', 'export', file], { env: server.env });
    expect(exp.code, exp.stderr).toBe(0);
    expect(exp.stdout).toMatch(/Exported to .*1 session/);
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    expect(doc.vtr_state_version).toBe(1);

    await runCli(['sessions', 'create'], { env: server.env });
    const imp = await runCli(['state', 'import', file, '--json'], { env: server.env });
    expect(imp.code, imp.stderr).toBe(0);
    expect(JSON.parse(imp.stdout)).toMatchObject({ imported: true, tables: { sessions: 1 } });
    const again = await runCli(['state', 'export', '-'], { env: server.env });
    expect(JSON.parse(again.stdout).tables).toEqual(doc.tables);
    expect(JSON.parse(again.stdout).tables.sessions[0].session_id).toBe(made.session_id);

    const refused = await runCli(['state', 'reset'], { env: server.env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--yes/);
    const reset = await runCli(['state', 'reset', '--yes', '--json'], { env: server.env });
    expect(reset.code, reset.stderr).toBe(0);
    const answer = JSON.parse(reset.stdout);
    expect(answer.site.secret_key).toMatch(/^sk_test_/);
    const list = JSON.parse((await runCli(['sessions', 'list', '--json'], { env: server.env })).stdout);
    expect(list).toEqual([]);
  });

  it('state export, state import: the summary names the rules and saved views the state holds', async () => {
    const file = join(dir, 'kinds.json');
    await runCli(['state', 'reset', '--yes'], { env: server.env });
    expect((await runCli(['rules', 'create', '--name', 'Block disposable', '--filter', 'risks contains disposable_email', '--action', 'block'], { env: server.env })).code).toBe(0);
    expect((await runCli(['views', 'create', '--name', 'Bad', '--filter', 'risk_level = invalid'], { env: server.env })).code).toBe(0);
    const exp = await runCli(['state', 'export', file], { env: server.env });
    expect(exp.code, exp.stderr).toBe(0);
    expect(exp.stdout).toMatch(/Exported to .*: 1 site\(s\), 1 access token\(s\), 1 rule\(s\), 0 session\(s\), 0 check\(s\), 1 saved view\(s\), 0 webhook\(s\)\./);
    const imp = await runCli(['state', 'import', file], { env: server.env });
    expect(imp.code, imp.stderr).toBe(0);
    expect(imp.stdout).toMatch(/Imported .*: 1 site\(s\), 1 access token\(s\), 1 rule\(s\), 0 session\(s\), 0 check\(s\), 1 saved view\(s\), 0 webhook\(s\)\./);
  });

  it('state export, state import: the summary is the result, on stdout for both, as --json puts its counts; stderr stays empty', async () => {
    const file = join(dir, 'streams.json');
    for (const args of [['state', 'export', file], ['state', 'import', file], ['state', 'export', file, '--quiet'], ['state', 'import', file, '--quiet']]) {
      const r = await runCli(args, { env: server.env });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout, args.join(' ')).toMatch(args[1] === 'export' ? /^Exported to .*: 1 site\(s\)/ : /^Imported .*: 1 site\(s\)/);
      expect(r.stderr, args.join(' ')).toBe('');
    }
    const json = await runCli(['state', 'export', file, '--json'], { env: server.env });
    expect(JSON.parse(json.stdout)).toMatchObject({ file, tables: { sites: 1 } });
    expect(json.stderr).toBe('');
  });

  it('import refuses files that are not state exports', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ vtr_state_version: 99, tables: {} }));
    const r = await runCli(['state', 'import', bad], { env: server.env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/vtr_state_version 99.*upgrade vtr/);
    writeFileSync(bad, 'not json');
    expect((await runCli(['state', 'import', bad], { env: server.env })).stderr).toMatch(/not JSON/);
    expect((await runCli(['state', 'import', join(dir, 'missing.json')], { env: server.env })).code).toBe(2);
    const folder = await runCli(['state', 'import', dir, '--yes'], { env: server.env });
    expect(folder.code).toBe(2);
    expect(folder.stderr).toContain('is a directory; give the file a state export was written to');
  });
});

describe('serve --import / --export-on-exit', () => {
  it('loads a file before listening and writes one on shutdown', async () => {
    const dir = tempDir();
    const seed = await startServer(['--memory']);
    const made = JSON.parse((await runCli(['sessions', 'create', '--json', '--ip', '203.0.113.7'], { env: seed.env })).stdout);
    const file = join(dir, 'seed.json');
    expect((await runCli(['state', 'export', file], { env: seed.env })).code).toBe(0);
    await seed.stop();

    // Saved again by an editor that writes a byte order mark: still a state file.
    const bom = join(dir, 'seed-bom.json');
    writeFileSync(bom, `\uFEFF${readFileSync(file, 'utf8')}`);
    const out = join(dir, 'out.json');
    const server = await startServer(['--memory', '--import', bom, '--export-on-exit', out]);
    expect(server.site).toBeNull(); // imported: no new default site printed
    const res = await fetch(`${server.baseUrl}/session/${made.session_id}`, {
      headers: { authorization: `Bearer ${JSON.parse(readFileSync(file, 'utf8')).tables.access_tokens[0].token}` },
    });
    expect(res.status).toBe(200);
    expect(await server.stop()).toBe(0);
    expect(existsSync(out)).toBe(true);
    expect(JSON.parse(readFileSync(out, 'utf8')).tables.sessions).toEqual(JSON.parse(readFileSync(file, 'utf8')).tables.sessions);
    expect(server.stderr()).toContain(`vtr: state exported to ${out}`);

    // Saved as UTF-16 (Notepad's "Unicode", PowerShell 5's `>`), its byte order mark first.
    const utf16 = join(dir, 'seed-utf16.json');
    writeFileSync(utf16, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(readFileSync(file, 'utf8'), 'utf16le')]));
    const again = await startServer(['--memory', '--import', utf16]);
    const sessions = (await fetch(`${again.origin}/_vtr/api/sessions`).then((r) => r.json())) as Array<{ session_id: string }>;
    expect(sessions.map((x) => x.session_id)).toEqual([made.session_id]);
    expect(await again.stop()).toBe(0);
  });

  // A named pipe nobody writes to is an import that never ends: whatever serve says meanwhile, it
  // said before the import finished.
  const endlessImport = () => {
    const fifo = join(tempDir(), 'state.fifo');
    execFileSync('mkfifo', [fifo]);
    return fifo;
  };

  it('serve --import: a port in use is refused at once, before the file is read', async () => {
    const busy = await startServer(['--memory']);
    try {
      const port = new URL(busy.origin).port;
      const r = await runCli(['serve', '--memory', '--port', port, '--import', endlessImport()], { timeoutMs: 15_000 });
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`port ${port} .*is in use.*--port 0`));
    } finally {
      await busy.stop();
    }
  });

  it('serve --import: a request made while the file is imported waits for it and sees only its state', async () => {
    const seed = await startServer(['--memory']);
    const file = join(tempDir(), 'seed.json');
    expect((await runCli(['state', 'export', file], { env: seed.env })).code).toBe(0);
    await seed.stop();
    const fifo = endlessImport();
    const port = await freePort();
    const cleanup: Array<() => Promise<unknown> | void> = [];
    const server = spawnCli(['serve', '--memory', '--port', String(port), '--import', fifo, '--json'], {}, cleanup);
    try {
      // Listening (the port is taken) while the import has not even begun to read.
      await until(() => new Promise<boolean>((res) => {
        const socket = connect(port, '127.0.0.1', () => res(true)).on('error', () => res(false));
        socket.on('connect', () => socket.destroy());
      }), 'the port to be taken');
      const asked = fetch(`http://127.0.0.1:${port}/_vtr/api/sites`);
      await writeFile(fifo, readFileSync(file));
      const sites = (await (await asked).json()) as Array<{ site_id: string }>;
      expect(sites.map((s) => s.site_id)).toEqual([seed.site!.site_id]);
      await until(() => server.stdout().includes('\n'), 'the start line');
      expect(JSON.parse(server.stdout()).imported.tables.sites).toBe(1);
      expect(await server.stop()).toBe(0);
    } finally {
      for (const fn of cleanup) await fn();
    }
  });

  it('SIGHUP (the terminal closed): serve closes as on SIGTERM and writes the export, then dies of the hang-up', async () => {
    const out = join(tempDir(), 'out.json');
    const server = await startServer(['--memory', '--export-on-exit', out]);
    const ended = new Promise<NodeJS.Signals | null>((resolve) => server.child.once('exit', (_code, sig) => resolve(sig)));
    await server.stop('SIGHUP');
    expect(await ended).toBe('SIGHUP');
    expect(JSON.parse(readFileSync(out, 'utf8'))).toMatchObject({ vtr_state_version: 1 });
    expect(server.stderr()).toMatch(/SIGHUP received[\s\S]*state exported[\s\S]*stopped/);
  });

  it.skipIf(!HAS_PTY)('a terminal that is closed under serve (SIGHUP, then its output fails): the export is still written', async () => {
    const out = join(tempDir(), 'out.json');
    const q = (a: string) => `'${a.replace(/'/g, `'\\''`)}'`;
    const term = spawn('script', ['-qec', [process.execPath, CLI, 'serve', '--port', '0', '--memory', '--export-on-exit', out].map(q).join(' '), '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let shown = '';
    term.stdout.on('data', (d: Buffer) => (shown += d.toString()));
    await pollUntil(() => shown.includes('listening on'), 20_000, () => shown);
    term.kill('SIGKILL'); // the terminal goes away: vtr gets SIGHUP, and writing to it fails
    await pollUntil(() => existsSync(out), 20_000, () => 'no export written');
    expect(JSON.parse(readFileSync(out, 'utf8'))).toMatchObject({ vtr_state_version: 1 });
  });

  it('--quiet: the export is written without the note saying so', async () => {
    const out = join(tempDir(), 'out.json');
    const server = await startServer(['--memory', '--quiet', '--export-on-exit', out]);
    expect(await server.stop()).toBe(0);
    expect(existsSync(out)).toBe(true);
    expect(server.stderr()).not.toContain('state exported');
  });

  it('a bad --import file stops serve with a clear error', async () => {
    const r = await runCli(['serve', '--memory', '--port', '0', '--import', join(tempDir(), 'nope.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--import .*nope\.json: no such file/);
    const dir = await runCli(['serve', '--memory', '--port', '0', '--import', tempDir()]);
    expect(dir.code).toBe(2);
    expect(dir.stderr).toMatch(/--import .*: it is a directory; give the file a state export was written to/);
  });

  it('an imported file without sites gets a default site, whose keys are printed as on a first start', async () => {
    const seed = await startServer(['--memory']);
    const file = join(tempDir(), 'empty.json');
    expect((await runCli(['state', 'export', file], { env: seed.env })).code).toBe(0);
    await seed.stop();
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { tables: Record<string, unknown[]> };
    for (const table of Object.keys(doc.tables)) doc.tables[table] = [];
    writeFileSync(file, JSON.stringify(doc));
    const server = await startServer(['--memory', '--import', file]);
    try {
      expect(server.site?.site_id).toMatch(/^site_/);
      expect(server.site?.access_token).toMatch(/^at_test_/);
    } finally {
      await server.stop();
    }
  });
});

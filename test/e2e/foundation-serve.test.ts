// `vtr serve` as a process: banner, restart durability, signals, --memory, --host/--admin-token, schema.
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startServer } from '../helpers/vtr-process.js';
import { CLEAN_ENV, http, removeScratchDirs, scratchDir, startTextServer, vtr, vtrJson } from '../helpers/foundation-e2e.js';

afterAll(() => removeScratchDirs());

describe('vtr serve (process)', { timeout: 120_000 }, () => {
  it('serve: the first start prints the default site keys and token; later starts do not', async () => {
    const db = join(scratchDir(), 'vtr.db');
    const first = startTextServer(['--db', db]);
    const [, origin] = await first.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    await first.waitFor(/access token (at_test_\S+)/);
    const out = first.stdout();
    expect(out).toMatch(/Created the default site "Local site" \(site_\w+\)/);
    const siteKey = out.match(/site key\s+(pk_test_\S+)/)?.[1];
    const secretKey = out.match(/secret key\s+(sk_test_\S+)/)?.[1];
    const token = out.match(/access token (at_test_\S+)/)?.[1];
    expect(out).toContain(`public API   ${origin}/api/v1`);
    // the printed keys are the live ones
    const keys = await vtrJson(['keys', 'show'], { VTR_BASE_URL: `${origin}/api/v1` });
    expect(keys).toMatchObject({ site_key: siteKey, secret_key: secretKey });
    // the printed token reads the public API: an unknown session is a 404, not a 401
    const probe = await http(`${origin}/api/v1/session/ses_nope`, { headers: { authorization: `Bearer ${token}` } });
    expect(probe.status).toBe(404);
    expect(await first.stop('SIGTERM')).toBe(0);

    const second = startTextServer(['--db', db]);
    await second.waitFor(/vtr sites list/);
    expect(second.stdout()).not.toMatch(/sk_test_|at_test_|pk_test_/);
    expect(second.stdout()).not.toContain('Created the default site');
    expect(await second.stop('SIGINT')).toBe(0);
    expect(second.stderr()).toMatch(/SIGINT received/);
  });

  it('serve: --json prints one line with the site on first start and site null later (default_site always)', async () => {
    const db = join(scratchDir(), 'vtr.db');
    const a = await startServer(['--db', db]);
    expect(a.site).toMatchObject({ site_id: expect.stringMatching(/^site_/), secret_key: expect.stringMatching(/^sk_test_/), access_token: expect.stringMatching(/^at_test_/) });
    expect(await a.stop()).toBe(0);
    const b = await startServer(['--db', db]);
    try {
      expect(b.site).toBeNull();
      // default_site on every start: a script reusing the database still gets the keys.
      expect(b.defaultSite).toEqual(a.site);
      const health = await http(`${b.origin}/_vtr/health`);
      expect(health).toMatchObject({ status: 200, body: { status: 'ok' } });
    } finally {
      expect(await b.stop()).toBe(0);
    }
  });

  it('serve: a signal the moment the banner appears still stops cleanly with exit 0', async () => {
    for (const signal of ['SIGTERM', 'SIGINT', 'SIGTERM', 'SIGINT'] as const) {
      const s = startTextServer(['--memory']);
      // signal on the very first byte of the banner, as a supervisor reading it might
      s.child.stdout!.once('data', () => s.child.kill(signal));
      const code = await Promise.race([s.exited(), new Promise((r) => setTimeout(r, 60_000, 'still running'))]);
      if (code === 'still running') s.child.kill('SIGKILL');
      expect(code, `${signal}: ${s.stderr()}`).toBe(0);
      expect(s.stderr()).toContain(`${signal} received`);
    }
  });

  it('serve: a second SIGTERM while closing does not cut the clean close short (exit 0, export written)', async () => {
    const dir = scratchDir();
    const s = startTextServer(['--db', join(dir, 'vtr.db'), '--export-on-exit', join(dir, 'export.json')]);
    await new Promise((r) => s.child.stdout!.once('data', r));
    s.child.kill('SIGTERM');
    s.child.kill('SIGTERM');
    expect(await s.exited(), s.stderr()).toBe(0);
    expect(existsSync(join(dir, 'export.json'))).toBe(true);
    expect(existsSync(join(dir, 'vtr.db-wal'))).toBe(false);
  });

  it('serve: a reader of its output that goes away does not stop it', async () => {
    const s = startTextServer(['--memory', '--log', 'pretty']);
    const [, origin] = await s.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    s.child.stdout!.destroy();
    s.child.stderr!.destroy();
    // Each request writes a log line into the broken pipe.
    for (let i = 0; i < 5; i++) expect((await fetch(`${origin}/api/v1/session/ses_nope`)).status).toBe(401);
    expect((await fetch(`${origin}/_vtr/health`)).status).toBe(200);
    expect(s.child.exitCode).toBeNull();
    s.child.kill('SIGTERM');
    expect(await s.exited()).toBe(0);
  });

  it('serve: --log pretty names the zone, and marks the time emulated under a test clock', async () => {
    for (const clock of ['system', 'frozen'] as const) {
      const s = startTextServer(['--memory', '--log', 'pretty', '--clock', clock]);
      const [, origin] = await s.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
      if (clock === 'frozen') expect((await vtr(['clock', 'advance', '2d'], { VTR_BASE_URL: `${origin}/api/v1` })).code).toBe(0);
      expect((await fetch(`${origin}/api/v1/session/ses_nope`)).status).toBe(401);
      expect(await s.stop('SIGTERM')).toBe(0);
      const line = s.stderr().split('\n').find((l) => l.includes('/api/v1/session/ses_nope'));
      if (clock === 'system') expect(line).toMatch(/^\d{2}:\d{2}:\d{2}\.\d{3} UTC GET +\/api\/v1\/session\/ses_nope 401 /);
      else expect(line).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3} UTC \(emulated\) GET +\/api\/v1\/session\/ses_nope 401 /);
    }
  });

  it('serve: --memory keeps nothing and writes no file', async () => {
    const cwd = scratchDir();
    const a = await startServer(['--memory'], { cwd });
    await vtrJson(['sites', 'create', '--name', 'Ephemeral'], a.env);
    expect((await vtrJson<unknown[]>(['sites', 'list'], a.env)).length).toBe(2);
    expect(await a.stop()).toBe(0);
    const b = await startServer(['--memory'], { cwd });
    try {
      expect(b.site).not.toBeNull(); // a fresh default site again
      const sites = await vtrJson<Array<{ name: string }>>(['sites', 'list'], b.env);
      expect(sites.map((s) => s.name)).toEqual(['Local site']);
    } finally {
      await b.stop();
    }
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('serve: the default --db is .vtr/vtr.db under the current directory', async () => {
    const cwd = scratchDir();
    const s = await startServer([], { cwd });
    expect(await s.stop()).toBe(0);
    expect(existsSync(join(cwd, '.vtr', 'vtr.db'))).toBe(true);
  });

  it('serve: --host 0.0.0.0 without --admin-token refuses with exit 2 and says why', async () => {
    const r = await vtr(['serve', '--host', '0.0.0.0', '--port', '0', '--memory']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/0\.0\.0\.0/);
    expect(r.stderr).toMatch(/--admin-token/);
    expect(r.stderr).toMatch(/management API/);
  });

  it('serve: with --admin-token the management API needs it', async () => {
    const s = await startServer(['--memory', '--host', '0.0.0.0', '--admin-token', 'adm1n-secret'], { env: CLEAN_ENV as Record<string, string> });
    try {
      const port = new URL(s.baseUrl).port;
      const env = { VTR_BASE_URL: `http://127.0.0.1:${port}/api/v1` };
      expect((await http(`http://127.0.0.1:${port}/_vtr/api/sites`)).status).toBe(401);
      expect((await http(`http://127.0.0.1:${port}/_vtr/api/sites`, { headers: { authorization: 'Bearer adm1n-secret' } })).status).toBe(200);
      const denied = await vtr(['sites', 'list', '--json'], env);
      expect(denied.code).toBe(1);
      expect(denied.stdout).toBe('');
      expect(denied.stderr).toMatch(/401/);
      expect(denied.stderr).toMatch(/admin token/i);
      expect((await vtrJson<unknown[]>(['sites', 'list', '--admin-token', 'adm1n-secret'], env)).length).toBe(1);
      expect((await vtrJson<unknown[]>(['sites', 'list'], { ...env, VTR_ADMIN_TOKEN: 'adm1n-secret' })).length).toBe(1);
      // the public API keeps its own auth
      const created = await vtrJson(['sessions', 'create', '--admin-token', 'adm1n-secret'], env);
      const read = await http(`http://127.0.0.1:${port}/api/v1/session/${created.session_id}`, { headers: { authorization: `Bearer ${s.site!.access_token}` } });
      expect(read.status).toBe(200);
    } finally {
      expect(await s.stop()).toBe(0);
    }
  });

  it('serve: a database from a newer vtr is refused with exit 1 and a clear message', async () => {
    const db = join(scratchDir(), 'future.db');
    const raw = new Database(db);
    raw.pragma('user_version = 999');
    raw.close();
    const r = await vtr(['serve', '--port', '0', '--db', db]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/schema version 999/);
    expect(r.stderr).toMatch(/upgrade vtr|another --db/);
    expect(r.stdout).toBe('');
  });

  it('serve: a port in use is an error naming --port', async () => {
    const a = await startServer(['--memory']);
    try {
      const port = new URL(a.baseUrl).port;
      const r = await vtr(['serve', '--port', port, '--memory']);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`port ${port}.*in use`));
      expect(r.stderr).toContain('--port');
    } finally {
      await a.stop();
    }
  });
});

// Security: constant-time secret comparisons, secrets never logged unmasked, loopback-only by
// default with --admin-token enforced elsewhere, tokens confined to their own site, webhook URLs
// limited to http(s).
import { afterAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { safeEqual, maskSecret } from '../../src/domain/ids.js';
import { runCli, startServer, tempDir, type ServerProcess } from '../helpers/vtr-process.js';
import { httpRequest } from '../helpers/raw-http.js';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));
const servers: ServerProcess[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop('SIGKILL');
});

async function start(args: string[] = [], env: Record<string, string> = {}): Promise<ServerProcess> {
  const s = await startServer(['--db', join(tempDir('vtr-sec-'), 'vtr.db'), ...args], { env });
  servers.push(s);
  return s;
}

async function call(origin: string, method: string, path: string, opts: { body?: unknown; token?: string; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const res = await fetch(`${origin}${path}`, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body), redirect: 'manual' });
  const text = await res.text();
  let body: any;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  return { status: res.status, body, text };
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? sourceFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('security: secret comparison', () => {
  it('safeEqual: equal strings only, whatever the length or encoding', () => {
    expect(safeEqual('sk_test_abc', 'sk_test_abc')).toBe(true);
    expect(safeEqual('sk_test_abc', 'sk_test_abd')).toBe(false);
    expect(safeEqual('sk_test_abc', 'sk_test_ab')).toBe(false);
    expect(safeEqual('', '')).toBe(true);
    expect(safeEqual('', 'x')).toBe(false);
    expect(safeEqual('é', 'e\u0301')).toBe(false);
    expect(safeEqual('😀', '😀')).toBe(true);
    expect(safeEqual('a'.repeat(10_000), 'a'.repeat(10_000))).toBe(true);
  });

  it('source: secrets, tokens and the admin token are compared with safeEqual, never ===', () => {
    // Comparisons of a secret-looking value with == / === / != / !==, apart from null/undefined/empty/type checks.
    const suspicious = /\b\w*(secret|token|admin|signature|password)\w*\b(?:\.\w+)*\s*[!=]==?\s*(?!undefined\b|null\b|''|""|`|\d)[\w.[\]'"]+|[\w.[\])'"]+\s*[!=]==?\s*\b\w*(secret|token|admin|signature|password)\w*\b(?!\s*\()/i;
    const allowed = /typeof|\.length|\.kind|\.type\b|\.code\b|\.status\b|\.revoked_at|\.method|=== '(?:paid|free|enabled|disabled|auto|manual)'|needs\.|wantToken|wantSecret|!== undefined|=== undefined|=== null|!== null/;
    const hits: string[] = [];
    for (const file of sourceFiles(SRC)) {
      if (file.includes(`${join('src', 'cli')}`)) continue; // the CLI holds its own credentials, it checks nobody's
      readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
        const code = line.replace(/\/\/.*$/, '');
        if (suspicious.test(code) && !allowed.test(code)) hits.push(`${file.slice(SRC.length + 1)}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(hits).toEqual([]);
    // And the places that authenticate do use it.
    const uses = (f: string) => readFileSync(join(SRC, f), 'utf8').includes('safeEqual(');
    expect(uses('server/app.ts'), 'admin token guard').toBe(true);
    expect(uses('sites/service.ts'), 'secret key and access token').toBe(true);
  });

  it('maskSecret: keeps the prefix and the last 4 characters only', () => {
    expect(maskSecret('sk_test_abcdefghijklmnopqrstuvwxyz123456')).toBe('sk_test_…3456');
    expect(maskSecret('at_test_ABCDEFGHIJKLMNOPQRSTUVWXYZ123456')).not.toContain('ABCDEF');
  });
});

describe('security: logs', () => {
  for (const log of ['pretty', 'json'] as const) {
    it(`serve --log ${log}: secret keys, tokens and webhook secrets never appear unmasked in the server's output`, async () => {
      const admin = 'admin-Token-For-Log-Scan-7f3a91c2';
      const s = await start(['--log', log, '--admin-token', admin]);
      const { site_id: siteId, secret_key: secret, access_token: token, site_key: siteKey } = s.site!;
      const secrets = new Set([secret, token, admin]);
      const A = { token: admin };
      const sess = await call(s.origin, 'POST', `/_vtr/api/sites/${siteId}/sessions`, { body: {}, ...A });
      expect(sess.status).toBe(201);
      const id = sess.body.session_id as string;
      const hook = await call(s.origin, 'POST', `/_vtr/api/sites/${siteId}/webhooks`, { body: { url: 'http://127.0.0.1:9/hook' }, ...A });
      if (hook.status === 201) secrets.add(hook.body.secret);
      const extra = await call(s.origin, 'POST', `/_vtr/api/sites/${siteId}/tokens`, A);
      if (extra.status === 201) secrets.add(extra.body.token);

      // Secrets in bodies, headers, query strings and paths; right and wrong; public and management API.
      const wrongSecret = 'sk_test_WRONGwrongWRONGwrongWRONGwrong99';
      const wrongToken = 'at_test_WRONGwrongWRONGwrongWRONGwrong99';
      const plainWrong = 'hunter2-not-shaped-like-a-key';
      secrets.add(wrongSecret).add(wrongToken).add(plainWrong);
      await call(s.origin, 'POST', '/api/v1/event', { body: { secret_key: secret, email: 'a@example.com', ip: '192.0.2.1' } });
      await call(s.origin, 'POST', '/api/v1/event', { body: { secret_key: wrongSecret } });
      await call(s.origin, 'POST', '/api/v1/event', { body: { secret_key: plainWrong } });
      await call(s.origin, 'POST', '/api/v1/event', { body: { secret_key: 42 } });
      await call(s.origin, 'POST', '/api/v1/event', { body: { name: secret, email: `${token}@example.com` } });
      await call(s.origin, 'GET', `/api/v1/session/${id}`, { token });
      await call(s.origin, 'GET', `/api/v1/session/${id}`, { token: wrongToken });
      await call(s.origin, 'GET', `/api/v1/session/${id}?token=${token}&secret_key=${secret}`);
      await call(s.origin, 'GET', `/api/v1/session/${id}?access_token=${plainWrong}&x=1&secret_key=${plainWrong}#frag`);
      await call(s.origin, 'GET', `/api/v1/session/${token}`, { token });
      await call(s.origin, 'GET', `/api/v1/session/${secret}/event`, { token });
      await call(s.origin, 'POST', `/api/v1/session/${id}/event`, { body: { name: token.slice(0, 40) }, token });
      await call(s.origin, 'POST', `/api/v1/session/${id}/event`, { body: '{"name": "x", "secret_key": "' + secret + '"', token });
      await call(s.origin, 'GET', `/api/v1/nope?admin_token=${admin}`, { headers: { cookie: `vtr_admin=${admin}` } });
      await call(s.origin, 'GET', `/_vtr/api/sites?admin_token=${admin}`);
      await call(s.origin, 'GET', '/_vtr/api/sites', { headers: { cookie: `vtr_admin=${admin}` } });
      await call(s.origin, 'GET', '/_vtr/api/sites', { token: 'not-the-admin-token' });
      await call(s.origin, 'POST', `/_vtr/agent/pageview`, { body: { site_key: siteKey, url: `https://example.com/?k=${secret}`, referrer: `https://x.test/?t=${token}` } });
      const rotated = await call(s.origin, 'POST', `/_vtr/api/sites/${siteId}/keys/rotate`, A);
      if (rotated.status === 200) {
        secrets.add(rotated.body.secret_key);
        await call(s.origin, 'POST', '/api/v1/event', { body: { secret_key: rotated.body.secret_key, ip: '192.0.2.1' } });
        // The old key, now unknown.
        await call(s.origin, 'POST', '/api/v1/event', { body: { secret_key: secret } });
      }
      // The request log as the API and CLI show it is masked too.
      const logs = await call(s.origin, 'GET', '/_vtr/api/logs?limit=1000', A);
      expect(logs.status).toBe(200);
      expect(logs.body.length).toBeGreaterThan(5);

      // Give the batched log a moment, then stop (flushes), and scan everything after the banner.
      await new Promise((r) => setTimeout(r, 300));
      expect(await s.stop('SIGTERM')).toBe(0);
      // The banner (stdout, first start) shows the keys by design; the log goes to stderr.
      const output = s.stderr();
      expect(output.length, 'the request log printed something').toBeGreaterThan(100);
      const leaks = [...secrets].filter((x) => x && (output.includes(x) || logs.text.includes(x)));
      expect(leaks.map((l) => maskSecret(l))).toEqual([]);
    }, 60_000);
  }
});

describe('security: network exposure', () => {
  it('serve: a non-loopback --host without --admin-token refuses to start (exit 2, saying why)', async () => {
    const db = ['--db', join(tempDir('vtr-sec-host-'), 'vtr.db'), '--port', '0'];
    const env = { VTR_ADMIN_TOKEN: undefined };
    for (const host of ['0.0.0.0', '::', '192.0.2.55', '::ffff:127.0.0.1', 'example.com']) {
      const r = await runCli(['serve', '--host', host, ...db], { env, timeoutMs: 20_000 });
      expect(r.code, `${host}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(/--admin-token/);
      expect(r.stdout).toBe('');
    }
    const empty = await runCli(['serve', '--host', '0.0.0.0', '--admin-token', '', ...db], { env, timeoutMs: 20_000 });
    expect(empty.code, empty.stderr).toBe(2);
  }, 90_000);

  it('serve: binds 127.0.0.1 by default, unreachable on other interfaces', async () => {
    const s = await start();
    expect(new URL(s.origin).hostname).toBe('127.0.0.1');
    const port = new URL(s.origin).port;
    const external = Object.values(networkInterfaces()).flat().find((i) => i && i.family === 'IPv4' && !i.internal);
    if (external) {
      const r = await fetch(`http://${external.address}:${port}/_vtr/health`).then((x) => x.status, (e: Error) => (e.cause as NodeJS.ErrnoException)?.code ?? 'error');
      expect(r).not.toBe(200);
    }
  });

  it('admin token: with --host 0.0.0.0 the management API and console need it; the public API does not', async () => {
    const admin = 'sEcReT-admin-9d8c7b6a';
    const s = await start(['--host', '0.0.0.0', '--admin-token', admin]);
    const origin = s.origin.replace('0.0.0.0', '127.0.0.1');
    const { site_id: siteId, access_token: token } = s.site!;
    for (const path of ['/_vtr/api/sites', `/_vtr/api/sites/${siteId}/keys`, '/_vtr/api/sessions', '/_vtr/api/tokens', '/_vtr/api/state', '/_vtr/api/logs']) {
      for (const t of [undefined, 'wrong', admin.slice(0, -1), `${admin}x`, admin.toUpperCase()]) {
        const r = await call(origin, 'GET', path, { token: t });
        expect(r.status, `${path} with ${t}`).toBe(401);
        expect(r.body.code).toBe('unauthorized');
        expect(r.text).not.toContain(admin);
      }
      expect((await call(origin, 'GET', path, { token: admin })).status, path).toBe(200);
    }
    // Writes too, and the console; a malformed cookie is a 401, not a 5xx.
    expect((await call(origin, 'POST', `/_vtr/api/sites/${siteId}/sessions`, { body: {} })).status).toBe(401);
    expect((await call(origin, 'POST', '/_vtr/api/state/reset', {})).status).toBe(401);
    const consolePage = await call(origin, 'GET', '/_vtr/console/sessions');
    expect([302, 401]).toContain(consolePage.status);
    expect(consolePage.text).not.toMatch(/ses_[A-Za-z0-9]{20}/);
    for (const cookie of ['vtr_admin=%E0%A4%A', 'vtr_admin=%', `vtr_admin=${encodeURIComponent(admin)}x`]) {
      const r = await call(origin, 'GET', '/_vtr/api/sites', { headers: { cookie } });
      expect(r.status, cookie).toBe(401);
    }
    expect((await call(origin, 'GET', '/_vtr/api/sites', { headers: { cookie: `vtr_admin=${encodeURIComponent(admin)}` } })).status).toBe(200);
    // The public API keeps its own credentials.
    const created = await call(origin, 'POST', `/_vtr/api/sites/${siteId}/sessions`, { body: {}, token: admin });
    expect(created.status).toBe(201);
    expect((await call(origin, 'GET', `/api/v1/session/${created.body.session_id}`, { token })).status).toBe(200);
    expect((await call(origin, 'GET', `/api/v1/session/${created.body.session_id}`, { token: admin })).status).toBe(401);
    expect(s.stderr()).not.toMatch(/unexpected error/i);
  });
});

describe('security: other web pages (CSRF)', () => {
  it('management API: a change sent by another web page is refused (403); the CLI, your code and the console itself pass', async () => {
    const s = await start();
    const sessions = async () => (await call(s.origin, 'GET', '/_vtr/api/sessions')).body.length;
    await call(s.origin, 'POST', `/_vtr/api/sites/${s.site!.site_id}/sessions`, { body: {} });
    for (const headers of <Array<Record<string, string>>>[
      { origin: 'http://evil.test' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site', origin: 'http://localhost:5173' },
    ]) {
      const reset = await call(s.origin, 'POST', '/_vtr/api/state/reset', { headers: { ...headers, 'content-type': 'text/plain' } });
      expect(reset.status, JSON.stringify(headers)).toBe(403);
      expect(reset.body.code).toBe('forbidden');
      expect((await call(s.origin, 'POST', '/_vtr/api/clock/advance', { body: { duration: '1d' }, headers })).status).toBe(403);
    }
    expect(await sessions()).toBe(1);
    // Reads stay open (the console's pages and the CLI read them), and the emulator's own origin may write.
    expect((await call(s.origin, 'GET', '/_vtr/api/sites', { headers: { origin: 'http://evil.test' } })).status).toBe(200);
    const own = await call(s.origin, 'POST', `/_vtr/api/sites/${s.site!.site_id}/sessions`, { body: {}, headers: { origin: s.origin, 'sec-fetch-site': 'same-origin' } });
    expect(own.status).toBe(201);
    expect(await sessions()).toBe(2);
  });
});

/** A request with the given Host header (fetch always sends the URL's own). */
async function withHost(origin: string, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<{ status: number; text: string }> {
  const data = body === undefined ? undefined : JSON.stringify(body);
  const r = await httpRequest(undefined, origin, method, path, { body: data, headers: { ...headers, ...(data ? { 'content-type': 'application/json' } : {}) } });
  return { status: r.status, text: r.body };
}

describe('security: DNS rebinding', () => {
  it('loopback default: the management API, console and demo answer only to loopback host names', async () => {
    const s = await start();
    const port = new URL(s.origin).port;
    for (const host of [`rebind.attacker.test:${port}`, `127.0.0.1.nip.io:${port}`, 'example.com']) {
      const read = await withHost(s.origin, 'GET', '/_vtr/api/state', { host });
      expect(read.status, host).toBe(403);
      expect(read.text).not.toMatch(/sk_test_/);
      const write = await withHost(s.origin, 'POST', '/_vtr/api/sites', { host, origin: `http://${host}`, 'sec-fetch-site': 'same-origin' }, { name: 'rebind' });
      expect(write.status, host).toBe(403);
      expect((await withHost(s.origin, 'GET', '/_vtr/console/sessions', { host })).status, host).toBe(403);
      expect((await withHost(s.origin, 'GET', '/_vtr/demo', { host })).status, host).toBe(403);
    }
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, `app.localhost:${port}`]) {
      expect((await withHost(s.origin, 'GET', '/_vtr/api/sites', { host })).status, host).toBe(200);
    }
    // The public API and the agent are not host-bound (credentials and site keys guard them).
    expect((await withHost(s.origin, 'GET', '/agent.js', { host: 'shop.test' })).status).toBe(200);
  });
});

describe('security: site isolation', () => {
  it("tokens: a token never reads or writes another site's session (404), nor after revocation (401)", async () => {
    const s = await start();
    const a = s.site!;
    const b = await call(s.origin, 'POST', '/_vtr/api/sites', { body: { name: 'Other site' } });
    expect(b.status).toBe(201);
    const bToken = (await call(s.origin, 'POST', `/_vtr/api/sites/${b.body.site_id}/tokens`)).body.token as string;
    const aSession = (await call(s.origin, 'POST', `/_vtr/api/sites/${a.site_id}/sessions`, { body: {} })).body.session_id as string;
    const bSession = (await call(s.origin, 'POST', `/_vtr/api/sites/${b.body.site_id}/sessions`, { body: {} })).body.session_id as string;

    const crossRead = await call(s.origin, 'GET', `/api/v1/session/${aSession}`, { token: bToken });
    expect(crossRead.status).toBe(404);
    expect(crossRead.body.code).toBe('not_found');
    // Same answer as a session that does not exist at all: nothing tells them apart.
    const none = await call(s.origin, 'GET', '/api/v1/session/ses_doesnotexist00000000', { token: bToken });
    expect(crossRead.body).toEqual(none.body);
    const crossWrite = await call(s.origin, 'POST', `/api/v1/session/${aSession}/event`, { body: { name: 'intrusion' }, token: bToken });
    expect(crossWrite.status).toBe(404);
    expect((await call(s.origin, 'GET', `/api/v1/session/${aSession}`, { token: a.access_token })).body.custom_events).not.toContain('intrusion');
    expect((await call(s.origin, 'GET', `/api/v1/session/${bSession}`, { token: bToken })).status).toBe(200);
    expect((await call(s.origin, 'GET', `/api/v1/session/${bSession}`, { token: a.access_token })).status).toBe(404);

    // Another site's probe in a visitor check is an invalid probe, and does not touch that session.
    const pv = await call(s.origin, 'POST', '/_vtr/agent/pageview', { body: { site_key: a.site_key, url: 'https://example.com/' } });
    if (pv.status === 200) {
      const bSecret = (await call(s.origin, 'GET', `/_vtr/api/sites/${b.body.site_id}/keys`)).body.secret_key as string;
      const check = await call(s.origin, 'POST', '/api/v1/event', { body: { secret_key: bSecret, probe_id: pv.body.probe_id } });
      expect(check.status).toBe(200);
      expect(check.body.session_id).toBeNull();
      expect(check.body.device?.valid).toBe(false);
      expect(check.body.risks).toContain('invalid_probe');
    }

    // Revoked: 401, even for its own site.
    expect((await call(s.origin, 'DELETE', `/_vtr/api/tokens/${bToken}`)).status).toBe(200);
    expect((await call(s.origin, 'GET', `/api/v1/session/${bSession}`, { token: bToken })).status).toBe(401);
  });
});

describe('security: webhooks', () => {
  it('webhook URLs: only http and https are accepted', async () => {
    const s = await start();
    const siteId = s.site!.site_id;
    const created = await call(s.origin, 'POST', `/_vtr/api/sites/${siteId}/webhooks`, { body: { url: 'http://127.0.0.1:9/hook' } });
    if (created.status === 404) return; // webhooks not in this build
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^whsec_/);
    expect((await call(s.origin, 'POST', `/_vtr/api/sites/${siteId}/webhooks`, { body: { url: 'https://example.com/hooks/vtr' } })).status).toBe(201);
    for (const url of ['file:///etc/passwd', 'ftp://example.com/x', 'gopher://example.com/', 'javascript:alert(1)', 'data:text/plain,hi', 'ws://example.com/', 'http://', 'not a url', '/relative/path', 'HTTP//example.com', 'file://localhost/etc/passwd', 'chrome://settings']) {
      const r = await call(s.origin, 'POST', `/_vtr/api/sites/${siteId}/webhooks`, { body: { url } });
      expect(r.status, url).toBe(400);
      expect(r.body.code).toBe('invalid_request');
      expect(r.body.message).toMatch(/url/i);
      const patched = await call(s.origin, 'PATCH', `/_vtr/api/webhooks/${created.body.webhook_id}`, { body: { url } });
      expect(patched.status, `PATCH ${url}`).toBe(400);
    }
    const after = await call(s.origin, 'GET', `/_vtr/api/webhooks/${created.body.webhook_id}`);
    expect(after.body.url).toBe('http://127.0.0.1:9/hook');
  });
});

// In-process emulator for HTTP tests: createEmulator on ':memory:', the default site and its token,
// and small request helpers over `app.request` (no sockets).
import { createEmulator, type EmulatorOptions } from '../../src/emulator.js';
import type { Session } from '../../src/domain/session.js';

export type TestEmulator = ReturnType<typeof createEmulator>;

export interface Harness {
  emulator: TestEmulator;
  site: { site_id: string; site_key: string; secret_key: string };
  token: string;
  /** Raw request through the app. */
  request(path: string, init?: RequestInit): Promise<Response>;
  /** JSON request: body is JSON-encoded with content-type application/json. */
  json<T = any>(method: string, path: string, opts?: { body?: unknown; token?: string | null; headers?: Record<string, string> }): Promise<{ status: number; body: T; headers: Headers }>;
  /** Public API with the default site's token (or `token`). */
  api<T = any>(method: string, path: string, opts?: { body?: unknown; token?: string | null }): Promise<{ status: number; body: T; headers: Headers }>;
  /** Management API (`/_vtr/api`). */
  admin<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T; headers: Headers }>;
  /** Creates a session on a site through the management API; fails the test on a non-201. */
  createSession(spec?: Record<string, unknown>, siteId?: string): Promise<Session>;
  close(): Promise<void>;
}

export function harness(opts: Partial<EmulatorOptions> = {}): Harness {
  const emulator = createEmulator({ dbPath: ':memory:', ...opts });
  const boot = emulator.bootstrap;
  if (!boot) throw new Error('a fresh in-memory emulator must bootstrap a default site');
  const request = async (path: string, init?: RequestInit) => emulator.app.request(path, init);
  const json: Harness['json'] = async (method, path, o = {}) => {
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    let body: string | undefined;
    if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await request(path, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      throw new Error(`${method} ${path} answered ${res.status} with non-JSON: ${text.slice(0, 200)}`);
    }
    return { status: res.status, body: parsed as any, headers: res.headers };
  };
  const h: Harness = {
    emulator,
    site: { site_id: boot.site.site_id, site_key: boot.site.site_key, secret_key: boot.site.secret_key },
    token: boot.token.token,
    request,
    json,
    api: (method, path, o = {}) => json(method, `/api/v1${path}`, { body: o.body, token: o.token === undefined ? boot.token.token : o.token }),
    admin: (method, path, body) => json(method, `/_vtr/api${path}`, { body, token: opts.adminToken ?? null }),
    async createSession(spec = {}, siteId = boot.site.site_id) {
      const r = await h.admin<Session>('POST', `/sites/${siteId}/sessions`, spec);
      if (r.status !== 201) throw new Error(`creating a session answered ${r.status}: ${JSON.stringify(r.body)}`);
      return r.body;
    },
    close: () => emulator.close(),
  };
  return h;
}

/** `2026-11-21T09:14:03.123456`: UTC, microseconds, no zone suffix. */
export { TIMESTAMP } from './service-fields.js';

export const UA = {
  chromeWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  ipad: 'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  headless: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
};

/** Harnesses made by `fresh()` are closed by `closeAll()` (call it from afterEach). */
export function harnessPool() {
  const open: Harness[] = [];
  return {
    fresh(opts: Parameters<typeof harness>[0] = {}): Harness {
      const h = harness(opts);
      open.push(h);
      return h;
    },
    async closeAll(): Promise<void> {
      for (const h of open.splice(0)) await h.close();
    },
  };
}
